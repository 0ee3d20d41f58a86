//! Relaying an interactive run with a transcript: the bytes passed on between the two programs as they come, and the conversation noted line by line with its times.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::Instant;

use crate::protocol::StartError;
use crate::sys;

/// The most bytes held for a side that does not read what the other wrote: past it, the
/// writer waits, as it would on a full pipe.
const RELAY_HELD: usize = 1 << 20;
/// The largest transcript kept; the conversation goes on past it, unrecorded.
const TRANSCRIPT_CAP: u64 = 64 << 20;

/// Bytes on their way from one program to the other through the runner.
pub(super) struct Relay {
    pub(super) from: Option<File>,
    pub(super) to: Option<File>,
    held: Vec<u8>,
    /// `>` from the program, `<` to it.
    pub(super) mark: u8,
    /// Where reads land, made once: the relay reads often.
    buf: Box<[u8]>,
    /// The writer ended its output and the reader was told so, all it said passed on.
    pub(super) told_end: bool,
    /// The end is passed on only once the writer was reaped (`writer_ended`): the program's
    /// output, so that the partner's verdict on it comes after the program's end.
    hold_end: bool,
    pub(super) writer_ended: bool,
}

impl Relay {
    pub(super) fn new(from: OwnedFd, to: OwnedFd, mark: u8, hold_end: bool) -> Relay {
        sys::set_nonblocking(from.as_raw_fd());
        sys::set_nonblocking(to.as_raw_fd());
        Relay {
            from: Some(File::from(from)),
            to: Some(File::from(to)),
            held: Vec::new(),
            mark,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            told_end: false,
            hold_end,
            writer_ended: false,
        }
    }

    pub(super) fn read_fd(&self) -> RawFd {
        match &self.from {
            Some(f) if self.held.len() < RELAY_HELD => f.as_raw_fd(),
            _ => -1,
        }
    }

    pub(super) fn write_fd(&self) -> RawFd {
        match &self.to {
            Some(f) if !self.held.is_empty() => f.as_raw_fd(),
            _ => -1,
        }
    }

    /// Reads what is there, notes it, passes on what the reader takes.
    pub(super) fn pump(&mut self, transcript: &mut Option<Transcript>) {
        let buf = &mut self.buf;
        if let Some(f) = self.from.as_mut() {
            loop {
                match f.read(buf) {
                    Ok(0) => {
                        self.from = None;
                        break;
                    }
                    Ok(n) => {
                        if let Some(t) = transcript.as_mut() {
                            t.note(self.mark, &buf[..n]);
                        }
                        self.held.extend_from_slice(&buf[..n]);
                        if self.held.len() >= RELAY_HELD || n < buf.len() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => {
                        self.from = None;
                        break;
                    }
                }
            }
        }
        if let Some(to) = self.to.as_mut() {
            while !self.held.is_empty() {
                match to.write(&self.held) {
                    Ok(n) => {
                        self.held.drain(..n);
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => {
                        // The reader is gone: the writer learns it as from a pipe with no
                        // reader (EPIPE), and what it still says goes nowhere.
                        self.to = None;
                        self.from = None;
                        self.held.clear();
                        break;
                    }
                }
            }
        }
        if self.from.is_none() && self.held.is_empty() && (self.writer_ended || !self.hold_end) {
            // The writer is done and all it said was passed on: the reader sees the end.
            if self.to.take().is_some() {
                self.told_end = true;
            }
        }
    }
}

/// The conversation as it is relayed: one line per line said, with the time it was complete.
pub(super) struct Transcript {
    out: BufWriter<File>,
    pub(super) start: Instant,
    /// The unfinished line of each direction (`>` then `<`).
    partial: [Vec<u8>; 2],
    written: u64,
    cut: bool,
}

impl Transcript {
    pub(super) fn create(path: &std::path::Path) -> Result<Transcript, StartError> {
        let f = File::create(path).map_err(|source| StartError::Create {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Transcript {
            out: BufWriter::with_capacity(1 << 16, f),
            start: Instant::now(),
            partial: [Vec::new(), Vec::new()],
            written: 0,
            cut: false,
        })
    }

    fn note(&mut self, mark: u8, bytes: &[u8]) {
        let i = usize::from(mark == b'<');
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.partial[i]);
            line.extend_from_slice(&rest[..end]);
            self.line(mark, &line);
            rest = &rest[end + 1..];
        }
        self.partial[i].extend_from_slice(rest);
    }

    fn line(&mut self, mark: u8, text: &[u8]) {
        if self.cut {
            return;
        }
        let at = self.start.elapsed().as_secs_f64();
        let head = format!("{at:.6} {}", mark as char);
        self.written += (head.len() + text.len() + 1) as u64;
        if self.written > TRANSCRIPT_CAP {
            self.cut = true;
            return;
        }
        let _ = self
            .out
            .write_all(head.as_bytes())
            .and_then(|_| self.out.write_all(text))
            .and_then(|_| self.out.write_all(b"\n"));
    }

    /// Writes the unfinished lines (said without a newline at the end) and closes the file.
    pub(super) fn finish(mut self) -> bool {
        for (i, mark) in [b'>', b'<'].into_iter().enumerate() {
            let line = std::mem::take(&mut self.partial[i]);
            if !line.is_empty() {
                self.line(mark, &line);
            }
        }
        let _ = self.out.flush();
        self.cut
    }
}
