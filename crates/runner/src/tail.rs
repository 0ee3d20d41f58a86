//! Keeping the head and the tail of a stream that may be endless (a program's stderr), counting the rest.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};

/// Keeps the first and the last bytes of a stream and counts the rest.
pub(super) struct Tail {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    half: usize,
    pub(super) total: u64,
}

impl Tail {
    pub(super) fn new(keep: u64) -> Tail {
        Tail {
            head: Vec::new(),
            tail: VecDeque::new(),
            half: (keep / 2) as usize,
            total: 0,
        }
    }

    /// Reads what is available; false once the stream has ended.
    pub(super) fn drain(&mut self, f: &mut File) -> bool {
        let mut buf = [0u8; 16384];
        loop {
            match f.read(&mut buf) {
                Ok(0) => return false,
                Ok(n) => self.push(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return false,
            }
        }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.half.saturating_sub(self.head.len());
        let take = room.min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        if bytes.len() >= self.half {
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.half..]);
        } else {
            let excess = (self.tail.len() + bytes.len()).saturating_sub(self.half);
            self.tail.drain(..excess);
            self.tail.extend(bytes);
        }
    }

    pub(super) fn into_bytes(self) -> Vec<u8> {
        let mut out = self.head;
        let kept = out.len() as u64 + self.tail.len() as u64;
        if self.total > kept {
            out.extend_from_slice(
                format!(
                    "\n[... {} bytes of stderr not kept ...]\n",
                    self.total - kept
                )
                .as_bytes(),
            );
        }
        out.extend(self.tail);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_head_and_tail_and_counts_the_rest() {
        let mut t = Tail::new(8);
        t.push(b"0123");
        t.push(b"456789abcdef");
        t.push(b"XY");
        assert_eq!(t.total, 18);
        let kept = String::from_utf8(t.into_bytes()).unwrap();
        assert!(kept.starts_with("0123"), "{kept}");
        assert!(kept.ends_with("efXY"), "{kept}");
        assert!(kept.contains("10 bytes of stderr not kept"), "{kept}");
        let mut t = Tail::new(8);
        t.push(b"abc");
        assert_eq!(t.into_bytes(), b"abc");
    }
}
