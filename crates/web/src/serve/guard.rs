//! What keeps other web pages away from a server that runs code: the `Host` header must name
//! this server (no DNS rebinding), and a state-changing request must carry the per-server
//! secret token (no cross-site form) and come, if from a page, from one of this server's.

use std::io::Read;
use std::net::IpAddr;

use axum::http::{header, HeaderMap};

/// The cookie a browser keeps the token in once the user opened the address with it.
pub const COOKIE: &str = "judge_token";

/// The per-server secret: 128 random bits, as hex.
#[derive(Clone)]
pub struct Token(String);

impl Token {
    /// A fresh token from the kernel's random source.
    pub fn generate() -> std::io::Result<Token> {
        let mut bytes = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// A token the user chose (`judge api --token`).
    pub fn given(token: String) -> Token {
        Token(token)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `given` is the token, compared in constant time (a wrong guess says nothing of
    /// how close it was).
    pub fn admits(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// Whether the request carries the token as `Authorization: Bearer TOKEN` (a script's, an
    /// editor's: the JSON API).
    pub fn in_bearer(&self, headers: &HeaderMap) -> bool {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .is_some_and(|t| self.admits(t.trim()))
    }

    /// Whether the request's cookie holds the token.
    pub fn in_cookie(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(k, v)| k == COOKIE && self.admits(v))
    }
}

/// Which `Host` headers name this server.
#[derive(Debug, Clone, Copy)]
pub struct Hosts {
    pub bound: IpAddr,
    pub port: u16,
}

impl Hosts {
    /// Whether `host` (a `Host` header) names this server: `localhost` or a loopback address, or
    /// with `--bind` the bound address (any address literal when bound to all of them). A DNS
    /// name other than localhost is refused: that is what a rebinding attack sends.
    pub fn admits(&self, host: &str) -> bool {
        let Some((name, port)) = host.rsplit_once(':') else {
            return false;
        };
        if port.parse::<u16>() != Ok(self.port) {
            return false;
        }
        if name.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let literal = name.trim_start_matches('[').trim_end_matches(']');
        match literal.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || self.bound.is_unspecified() || ip == self.bound,
            Err(_) => false,
        }
    }

    /// Whether a request's `Origin`, when it has one, is a page of this server.
    pub fn same_origin(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return true;
        };
        let origin = origin.to_str().unwrap_or("");
        origin
            .strip_prefix("http://")
            .is_some_and(|host| self.admits(host))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_names_are_admitted() {
        let loopback = Hosts {
            bound: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
        };
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "127.1.2.3:8080",
        ] {
            assert!(loopback.admits(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "192.168.1.5:8080",
            "localhost.evil.example:8080",
        ] {
            assert!(!loopback.admits(bad), "{bad}");
        }
        let everywhere = Hosts {
            bound: IpAddr::from([0, 0, 0, 0]),
            port: 80,
        };
        assert!(everywhere.admits("192.168.1.5:80"));
        assert!(!everywhere.admits("judge.example:80"));
    }

    #[test]
    fn the_token_is_checked_whole() {
        let t = Token::generate().unwrap();
        assert_eq!(t.as_str().len(), 32);
        assert!(t.admits(t.as_str()));
        assert!(!t.admits(&t.as_str()[1..]));
        assert!(!t.admits(""));
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            format!("a=b; {COOKIE}={}", t.as_str()).parse().unwrap(),
        );
        assert!(t.in_cookie(&headers));
        assert!(!Token::generate().unwrap().in_cookie(&headers));
        let mut bearer = HeaderMap::new();
        bearer.insert(
            header::AUTHORIZATION,
            format!("Bearer {}", t.as_str()).parse().unwrap(),
        );
        assert!(t.in_bearer(&bearer));
        assert!(!t.in_bearer(&headers), "a cookie is not a bearer token");
    }
}
