//! The reference tool's rules for what generators.yaml's cases are called and seeded with:
//! numbers zero-padded to the width of the document's count, copies of a counted case, and
//! each command's seed. The same document makes the same names and the same data as BAPCtools.

use serde_json::Value;
use sha2::{Digest, Sha512};

/// The most copies `count:` makes of a case, as the reference tool allows.
const MAX_COUNT: u64 = 1000;

/// A `count:` that is not a number of copies: the value as written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("`count` is {0}: it is a whole number from 1 to {max}", max = MAX_COUNT)]
pub(super) struct BadCount(Value);

/// What is wrong with a command's `{seed}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadSeed {
    #[error("`{{seed}}` may appear once in a command")]
    Twice,
    #[error("`{{seed` is not closed")]
    NotClosed,
    /// The tag as written: `{seed:x}`.
    #[error("`{0}` is not {{seed}} or {{seed:N}}")]
    NotATag(String),
}

/// A case's `count:`, when it has one: how many copies of it are made.
pub(super) fn count_of(v: &Value) -> std::result::Result<Option<usize>, BadCount> {
    match v.as_object().and_then(|m| m.get("count")) {
        None => Ok(None),
        Some(c) => match c.as_u64() {
            Some(n @ 1..=MAX_COUNT) => Ok(Some(n as usize)),
            _ => Err(BadCount(c.clone())),
        },
    }
}

/// `key` numbered `n` of `of`: the number zero-padded to the width of `of`, a dash, the key
/// (the number alone for an empty key).
pub(super) fn numbered_name(key: &str, n: usize, of: usize) -> String {
    let width = of.to_string().len();
    match key {
        "" => format!("{n:0width$}"),
        key => format!("{n:0width$}-{key}"),
    }
}

/// `{seed}` or `{seed:N}` in `command` replaced by its seed, the reference tool's: the last 31
/// bits of the SHA-512 of the salt, `:INDEX` for a counted case's second copy on, and the
/// command as written.
pub(super) fn seeded(
    command: &str,
    salt: &str,
    index: usize,
) -> std::result::Result<String, BadSeed> {
    let count = command.matches("{seed").count();
    if count > 1 {
        return Err(BadSeed::Twice);
    }
    let Some(start) = command.find("{seed") else {
        return Ok(command.to_string());
    };
    let Some(len) = command[start..].find('}') else {
        return Err(BadSeed::NotClosed);
    };
    let tag = &command[start..start + len + 1];
    let valid = tag == "{seed}"
        || tag
            .strip_prefix("{seed:")
            .and_then(|t| t.strip_suffix('}'))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if !valid {
        return Err(BadSeed::NotATag(tag.to_string()));
    }
    let copy = if index > 0 {
        format!(":{index}")
    } else {
        String::new()
    };
    let digest = Sha512::digest(format!("{salt}{copy}{command}").as_bytes());
    let last = u32::from_be_bytes(digest[60..64].try_into().expect("four bytes"));
    Ok(command.replacen(tag, &(last & 0x7fff_ffff).to_string(), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_the_formats_hash_of_the_salt_and_the_command() {
        let a = seeded("gen.py {seed}", "", 0).unwrap();
        let b = seeded("gen.py {seed:1}", "", 0).unwrap();
        let c = seeded("gen.py {seed}", "salt", 0).unwrap();
        let d = seeded("gen.py {seed}", "", 1).unwrap();
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
        assert_eq!(a, seeded("gen.py {seed}", "", 0).unwrap());
        let n: u64 = a.strip_prefix("gen.py ").unwrap().parse().unwrap();
        assert!(n < 1 << 31);
        assert!(seeded("gen.py {seed} {seed:2}", "", 0).is_err());
    }

    #[test]
    fn a_bad_seed_or_count_says_what_is_wrong() {
        let said = |command: &str| seeded(command, "", 0).unwrap_err().to_string();
        assert_eq!(
            said("gen.py {seed} {seed}"),
            "`{seed}` may appear once in a command"
        );
        assert_eq!(said("gen.py {seed"), "`{seed` is not closed");
        assert_eq!(
            said("gen.py {seed:x}"),
            "`{seed:x}` is not {seed} or {seed:N}"
        );
        let count = |yaml: &str| count_of(&crate::yaml::value(yaml).unwrap());
        assert_eq!(
            count("count: 0\n").unwrap_err().to_string(),
            "`count` is 0: it is a whole number from 1 to 1000"
        );
        assert_eq!(
            count("count: two\n").unwrap_err().to_string(),
            "`count` is \"two\": it is a whole number from 1 to 1000"
        );
    }

    #[test]
    fn seeds_are_the_reference_tools_hash() {
        // int(sha512(salt + ":I" + command).hexdigest(), 16) % 2**31, computed by Python.
        assert_eq!(
            seeded("args.py 1 {seed}", "", 0).unwrap(),
            "args.py 1 197853542"
        );
        assert_eq!(
            seeded("gen.py 3 {seed:1}", "pepper", 2).unwrap(),
            "gen.py 3 1745827275"
        );
    }

    #[test]
    fn numbers_take_the_width_of_the_documents_count() {
        assert_eq!(numbered_name("small", 3, 11), "03-small");
        assert_eq!(numbered_name("", 3, 9), "3");
        let count = |yaml: &str| count_of(&crate::yaml::value(yaml).unwrap());
        assert_eq!(count("generate: g\ncount: 3\n"), Ok(Some(3)));
        assert_eq!(count("generate: g\n"), Ok(None));
        assert!(count("count: 0\n").is_err() && count("count: two\n").is_err());
    }
}
