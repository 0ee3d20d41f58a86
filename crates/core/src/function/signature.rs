//! A declared function: its name, its typed parameters and its return type, read from
//! `[function]` in problem.toml (`params = ["nums: int[]", "target: int"]`, `returns = "int[]"`).
//!
//! Pure: strings in, a [`Signature`] or a [`SignatureError`] that says what is wrong and how to
//! write it instead. The location of the text (problem.toml, its line) is the caller's.

use std::fmt;

/// A type a declared function takes or returns: LeetCode's scalars, arrays of them (one or two
/// levels), and its linked list and binary tree, serialised as LeetCode serialises them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// A 32-bit signed integer.
    Int,
    /// A 64-bit signed integer.
    Long,
    /// A 64-bit float, compared within the problem's tolerance.
    Double,
    Bool,
    /// One character, written in JSON as a string of length one (`"a"`).
    Char,
    String,
    /// `T[]`; `T[][]` is an array of arrays. Elements are scalars or arrays of scalars.
    Array(Box<Type>),
    /// A singly linked list of ints, written as the array of its values (`[1,2,3]`; `[]` for
    /// none).
    ListNode,
    /// A binary tree of ints, written level by level with `null` for a missing child, trailing
    /// `null`s dropped (`[1,null,2,3]`; `[]` for none).
    TreeNode,
}

/// The scalar names, in the order the error message lists them.
const SCALARS: [(&str, Type); 6] = [
    ("int", Type::Int),
    ("long", Type::Long),
    ("double", Type::Double),
    ("bool", Type::Bool),
    ("char", Type::Char),
    ("string", Type::String),
];

/// How many `[]` a type may carry: LeetCode's problems use matrices, never deeper.
const MAX_DIMENSIONS: usize = 2;

impl Type {
    /// Reads a type as problem.toml writes it: `int`, `string[]`, `char[][]`, `ListNode`.
    pub fn parse(text: &str) -> Result<Type, SignatureError> {
        let text = text.trim();
        let base = text.trim_end_matches("[]").trim_end();
        let dimensions = (text.len() - base.len()) / 2;
        if text[base.len()..].replace("[]", "").trim() != "" || base.contains(['[', ']']) {
            return Err(SignatureError::UnknownType(text.to_string()));
        }
        let scalar = SCALARS.iter().find(|(name, _)| *name == base);
        let mut ty = match (scalar, base) {
            (Some((_, t)), _) => t.clone(),
            (None, "ListNode") => Type::ListNode,
            (None, "TreeNode") => Type::TreeNode,
            _ => return Err(SignatureError::UnknownType(text.to_string())),
        };
        if dimensions > 0 && matches!(ty, Type::ListNode | Type::TreeNode) {
            return Err(SignatureError::NodeArray(text.to_string()));
        }
        if dimensions > MAX_DIMENSIONS {
            return Err(SignatureError::TooDeep(text.to_string()));
        }
        for _ in 0..dimensions {
            ty = Type::Array(Box::new(ty));
        }
        Ok(ty)
    }

    /// The element type of an array; `None` for anything else.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::Array(e) => Some(e),
            _ => None,
        }
    }
}

/// The type as problem.toml writes it.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Array(e) => write!(f, "{e}[]"),
            Type::ListNode => f.write_str("ListNode"),
            Type::TreeNode => f.write_str("TreeNode"),
            scalar => {
                let name = SCALARS.iter().find(|(_, t)| t == scalar).map(|(n, _)| *n);
                f.write_str(name.unwrap_or("?"))
            }
        }
    }
}

/// One parameter: `nums: int[]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    pub name: String,
    pub ty: Type,
}

impl Param {
    /// Reads `name: type`.
    pub fn parse(text: &str) -> Result<Param, SignatureError> {
        let Some((name, ty)) = text.split_once(':') else {
            return Err(SignatureError::BadParam(text.trim().to_string()));
        };
        let name = name.trim();
        if !is_identifier(name) {
            return Err(SignatureError::BadName(name.to_string()));
        }
        Ok(Param {
            name: name.to_string(),
            ty: Type::parse(ty)?,
        })
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.ty)
    }
}

/// A declared function, as LeetCode states it: `twoSum(nums: int[], target: int) -> int[]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The name as LeetCode writes it (camelCase); Rust's is [`Signature::snake_name`].
    pub name: String,
    pub params: Vec<Param>,
    pub returns: Type,
}

impl Signature {
    /// Reads the three keys of `[function]`.
    pub fn parse(
        name: &str,
        params: &[String],
        returns: &str,
    ) -> Result<Signature, SignatureError> {
        let name = name.trim();
        if !is_identifier(name) {
            return Err(SignatureError::BadName(name.to_string()));
        }
        let params = params
            .iter()
            .map(|p| Param::parse(p))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, p) in params.iter().enumerate() {
            if params[..i].iter().any(|q| q.name == p.name) {
                return Err(SignatureError::Repeated(p.name.clone()));
            }
        }
        Ok(Signature {
            name: name.to_string(),
            params,
            returns: Type::parse(returns)?,
        })
    }

    /// The name in Rust, as LeetCode's Rust editor gives it: `totalNQueens` -> `total_n_queens`.
    pub fn snake_name(&self) -> String {
        snake_case(&self.name)
    }
}

/// `twoSum(nums: int[], target: int) -> int[]`.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<String> = self.params.iter().map(Param::to_string).collect();
        write!(
            f,
            "{}({}) -> {}",
            self.name,
            params.join(", "),
            self.returns
        )
    }
}

/// What is wrong with a declaration; the caller adds where it was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("unknown type `{0}`; the types are int, long, double, bool, char, string, arrays of them (`int[]`, `int[][]`), ListNode and TreeNode")]
    UnknownType(String),
    #[error("`{0}`: arrays of ListNode or TreeNode are not supported; the types are int, long, double, bool, char, string, arrays of them (`int[]`, `int[][]`), ListNode and TreeNode")]
    NodeArray(String),
    #[error("`{0}` has more than two `[]`; arrays go two levels deep (`int[][]`)")]
    TooDeep(String),
    #[error("parameter `{0}` does not read as `name: type` (e.g. `nums: int[]`)")]
    BadParam(String),
    #[error("`{0}` is not a name: use letters, digits and `_`, not first a digit")]
    BadName(String),
    #[error("two parameters are named `{0}`")]
    Repeated(String),
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// camelCase to snake_case, a capital run ending before a lower-case letter split off its last
/// capital (`NQueens` -> `n_queens`), as LeetCode names Rust's methods.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_type_reads_and_writes_back() {
        for text in [
            "int",
            "long",
            "double",
            "bool",
            "char",
            "string",
            "int[]",
            "string[]",
            "char[][]",
            "double[][]",
            "ListNode",
            "TreeNode",
        ] {
            assert_eq!(Type::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(
            Type::parse(" int [] ").unwrap(),
            Type::Array(Box::new(Type::Int))
        );
    }

    #[test]
    fn a_wrong_type_says_which_and_lists_the_types() {
        let e = Type::parse("integer").unwrap_err();
        assert_eq!(e, SignatureError::UnknownType("integer".into()));
        assert!(e.to_string().contains("ListNode and TreeNode"), "{e}");
        assert_eq!(
            Type::parse("int[][][]").unwrap_err(),
            SignatureError::TooDeep("int[][][]".into())
        );
        assert_eq!(
            Type::parse("TreeNode[]").unwrap_err(),
            SignatureError::NodeArray("TreeNode[]".into())
        );
        for bad in ["int[", "int]", "in[]t", "vector<int>", ""] {
            assert!(Type::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_signature_reads_as_leetcode_states_it() {
        let s =
            Signature::parse("twoSum", &strings(&["nums: int[]", "target:int"]), "int[]").unwrap();
        assert_eq!(s.to_string(), "twoSum(nums: int[], target: int) -> int[]");
        assert_eq!(s.params[1].ty, Type::Int);
        assert_eq!(
            Signature::parse("f", &strings(&["nums int[]"]), "int").unwrap_err(),
            SignatureError::BadParam("nums int[]".into())
        );
        assert_eq!(
            Signature::parse("f", &strings(&["a: int", "a: long"]), "int").unwrap_err(),
            SignatureError::Repeated("a".into())
        );
        assert_eq!(
            Signature::parse("two sum", &[], "int").unwrap_err(),
            SignatureError::BadName("two sum".into())
        );
    }

    #[test]
    fn rust_names_are_leetcodes() {
        for (camel, snake) in [
            ("totalNQueens", "total_n_queens"),
            ("twoSum", "two_sum"),
            ("maxProfit", "max_profit"),
            ("isValidBST", "is_valid_bst"),
            ("lengthOfLIS", "length_of_lis"),
            ("kthSmallest", "kth_smallest"),
            ("sum2Numbers", "sum2_numbers"),
            ("search", "search"),
        ] {
            assert_eq!(snake_case(camel), snake, "{camel}");
        }
    }
}
