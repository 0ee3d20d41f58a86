//! A problem's id from where it came from: short and predictable from the URL of a judge the
//! judge knows (Codeforces 954G is `cf-954g`, AtCoder abc300_a is `abc300-a`), a slug of its
//! name otherwise.

/// The longest id made from a name.
const MAX_SLUG: usize = 40;

/// The id for a problem at `url` named `name`: from the URL where the judge is known, else a
/// slug of the name, else of the URL's last part, else `problem`.
pub fn suggest(url: Option<&str>, name: &str) -> String {
    if let Some(id) = url.and_then(from_url) {
        return id;
    }
    let slugged = slug(name);
    if !slugged.is_empty() {
        return slugged;
    }
    url.and_then(|u| split_url(u).map(|(_, path)| path))
        .and_then(|path| {
            path.into_iter()
                .rev()
                .map(|s| slug(&s))
                .find(|s| !s.is_empty())
        })
        .unwrap_or_else(|| "problem".into())
}

/// The id a known judge's URL gives: Codeforces (contest, problemset, gym and group URLs),
/// AtCoder and CSES.
pub fn from_url(url: &str) -> Option<String> {
    let (host, path) = split_url(url)?;
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let index =
        |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_alphanumeric());
    if host == "codeforc.es" || host.split('.').any(|p| p == "codeforces") {
        let (gym, contest, problem) = match path.as_slice() {
            ["contest", c, "problem", p, ..] | ["problemset", "problem", c, p, ..] => {
                (false, *c, *p)
            }
            ["gym", c, "problem", p, ..] | ["problemset", "gymProblem", c, p, ..] => (true, *c, *p),
            // A group's contests are gym contests.
            ["group", _, "contest", c, "problem", p, ..] => (true, *c, *p),
            _ => return None,
        };
        if !number(contest) || !index(problem) {
            return None;
        }
        let gym = if gym { "gym" } else { "" };
        return Some(format!("cf-{gym}{contest}{}", problem.to_ascii_lowercase()));
    }
    if host == "atcoder.jp" {
        if let ["contests", _, "tasks", task, ..] = path.as_slice() {
            let id = task.to_ascii_lowercase().replace('_', "-");
            let ok = !id.is_empty()
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !id.starts_with('-');
            return ok.then_some(id);
        }
        return None;
    }
    if host == "cses.fi" {
        if let ["problemset", "task", n, ..] = path.as_slice() {
            return number(n).then(|| format!("cses-{n}"));
        }
    }
    None
}

/// `G. Castle Defense` -> `g-castle-defense`: lowercase ASCII letters and digits, every other
/// run of characters one `-`, at most 40 characters (cut at a `-`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out = out.trim_end_matches('-').to_string();
    if out.len() > MAX_SLUG {
        let cut = out[..=MAX_SLUG]
            .rfind('-')
            .filter(|&i| i > 0)
            .unwrap_or(MAX_SLUG);
        out.truncate(cut);
    }
    out
}

/// `https://Host:443/a/b?q#f` -> (`host`, [`a`, `b`]); `None` for what is not an http(s) URL.
fn split_url(url: &str) -> Option<(String, Vec<String>)> {
    let rest = url
        .trim()
        .strip_prefix("https://")
        .or_else(|| url.trim().strip_prefix("http://"))?;
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("").to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    if host.is_empty() {
        return None;
    }
    let segments = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    Some((host, segments))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_judges_give_short_ids() {
        for (url, id) in [
            ("https://codeforces.com/problemset/problem/954/G", "cf-954g"),
            ("https://codeforces.com/contest/954/problem/G", "cf-954g"),
            (
                "http://www.codeforces.com/contest/1234/problem/B1?locale=en",
                "cf-1234b1",
            ),
            ("https://m1.codeforces.com/contest/1/problem/a", "cf-1a"),
            (
                "https://codeforces.com/gym/102222/problem/A",
                "cf-gym102222a",
            ),
            (
                "https://codeforces.com/problemset/gymProblem/102222/C",
                "cf-gym102222c",
            ),
            (
                "https://codeforces.com/group/AbC12/contest/345678/problem/D",
                "cf-gym345678d",
            ),
            (
                "https://atcoder.jp/contests/abc300/tasks/abc300_a",
                "abc300-a",
            ),
            (
                "https://atcoder.jp/contests/arc058/tasks/arc058_a",
                "arc058-a",
            ),
            (
                "https://atcoder.jp/contests/practice/tasks/practice_1",
                "practice-1",
            ),
            ("https://cses.fi/problemset/task/1068", "cses-1068"),
        ] {
            assert_eq!(from_url(url).as_deref(), Some(id), "{url}");
        }
        for url in [
            "https://codeforces.com/blog/entry/1",
            "https://codeforces.com/contest/954",
            "https://codeforces.com/contest/x/problem/G",
            "https://atcoder.jp/contests/abc300",
            "https://open.kattis.com/problems/hello",
            "not a url",
            "",
        ] {
            assert_eq!(from_url(url), None, "{url}");
        }
    }

    #[test]
    fn other_problems_get_a_slug_of_their_name() {
        assert_eq!(slug("G. Castle Defense"), "g-castle-defense");
        assert_eq!(slug("  A+B Problem!! "), "a-b-problem");
        assert_eq!(slug("题目"), "");
        assert_eq!(
            slug("A very long problem name that goes on and on without end"),
            "a-very-long-problem-name-that-goes-on"
        );
        assert!(slug(&"x".repeat(100)).len() <= MAX_SLUG);
        assert_eq!(
            suggest(
                Some("https://open.kattis.com/problems/hello"),
                "Hello World!"
            ),
            "hello-world"
        );
        assert_eq!(
            suggest(Some("https://www.luogu.com.cn/problem/P1001"), "题目"),
            "p1001"
        );
        assert_eq!(suggest(None, "???"), "problem");
        assert_eq!(
            suggest(
                Some("https://codeforces.com/contest/954/problem/G"),
                "G. Castle Defense"
            ),
            "cf-954g"
        );
    }
}
