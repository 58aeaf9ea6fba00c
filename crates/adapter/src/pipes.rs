//! An adapter's stdin and stdout driven from the runner's own thread: non-blocking
//! pipes and `poll(2)`, so that a request's line and its answer cross no thread (a
//! writer thread and a reader thread handed each line over through channels before:
//! about three thread wakes a request).
//!
//! What the threads guaranteed holds here: lines are written whole and in order, each
//! line's write reported on its own (a line written whole before the adapter ended is
//! answered or not on its own account; the lines queued behind a failed write are
//! never written); response lines are read in order, at most
//! [`RESPONSE_MAX`](crate::client::RESPONSE_MAX) bytes each with the rules of
//! [`read_line_capped`](crate::lines::read_line_capped), and at most about one such
//! line is held ahead (bounded memory, whatever the adapter writes); stdout is read
//! while a write waits, so an adapter that answers before it reads on is never stuck
//! behind the runner. Every wait has a deadline.

use crate::lines::{LineRead, read_line_capped};
use rustix::event::{PollFd, PollFlags, poll};
use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::process::{ChildStdin, ChildStdout};
use std::time::Instant;

/// What one read of a response line gives.
pub(crate) enum Incoming {
    /// One line, without its newline, at most the cap.
    Line(Vec<u8>),
    /// A line longer than the cap: its first bytes. Nothing more is read.
    TooLong(Vec<u8>),
    /// Reading failed. Nothing more is read.
    Failed(std::io::Error),
}

/// Why a wait ended without what it waited for.
#[derive(Debug)]
pub(crate) enum Wait {
    /// The deadline passed.
    Timeout,
    /// It can never come: the pipe is closed (the adapter ended, a write failed, or
    /// stdout ended after the lines read).
    Disconnected,
}

/// Bytes read from stdout at a time.
const CHUNK: usize = 64 * 1024;

/// The adapter's stdin and stdout, non-blocking.
pub(crate) struct Pipes {
    /// `None` once a write failed (the lines behind it are dropped).
    stdin: Option<ChildStdin>,
    /// `None` once stdout ended, failed or gave a line over the cap.
    stdout: Option<ChildStdout>,
    /// Lines not yet written whole, the first `written_of_front` bytes of the front
    /// one written.
    queued: VecDeque<Vec<u8>>,
    written_of_front: usize,
    /// The outcome of each line written (or whose write failed), in order, not yet
    /// taken.
    outcomes: VecDeque<std::io::Result<()>>,
    /// Most lines queued and not yet taken ([`Pipes::queue`] refuses more).
    room: usize,
    /// Bytes read from stdout and not yet taken as lines.
    read: Vec<u8>,
    /// Why stdout was given up, to tell once the lines read before it are taken.
    failed: Option<std::io::Error>,
    cap: usize,
    chunk: Vec<u8>,
}

impl Pipes {
    /// Makes both pipes non-blocking; response lines are capped at `cap` bytes, and at
    /// most `room` lines are queued and not yet taken.
    pub(crate) fn new(
        stdin: ChildStdin,
        stdout: ChildStdout,
        cap: usize,
        room: usize,
    ) -> std::io::Result<Pipes> {
        rustix::io::ioctl_fionbio(&stdin, true)?;
        rustix::io::ioctl_fionbio(&stdout, true)?;
        Ok(Pipes {
            stdin: Some(stdin),
            stdout: Some(stdout),
            queued: VecDeque::new(),
            written_of_front: 0,
            outcomes: VecDeque::new(),
            room,
            read: Vec::new(),
            failed: None,
            cap,
            chunk: vec![0; CHUNK],
        })
    }

    /// Queues one line (its newline included) and writes what the pipe takes now;
    /// `false`, and nothing queued, when stdin is closed or `room` lines wait.
    pub(crate) fn queue(&mut self, line: Vec<u8>) -> bool {
        if self.stdin.is_none() || self.queued.len() + self.outcomes.len() >= self.room {
            return false;
        }
        self.queued.push_back(line);
        self.write_some();
        true
    }

    /// The outcome of writing the next line queued, waiting for it by `deadline`.
    pub(crate) fn written(&mut self, deadline: Instant) -> Result<std::io::Result<()>, Wait> {
        loop {
            if let Some(outcome) = self.outcomes.pop_front() {
                return Ok(outcome);
            }
            if self.stdin.is_none() {
                return Err(Wait::Disconnected);
            }
            self.wait(deadline)?;
        }
    }

    /// The next response line, waiting for it by `deadline`.
    pub(crate) fn line(&mut self, deadline: Instant) -> Result<Incoming, Wait> {
        loop {
            if let Some(incoming) = self.take_line() {
                return Ok(incoming);
            }
            if self.stdout.is_none() {
                return match self.failed.take() {
                    Some(err) => Ok(Incoming::Failed(err)),
                    None => Err(Wait::Disconnected),
                };
            }
            self.wait(deadline)?;
        }
    }

    /// Closes stdin (the adapter reads the end of its input), dropping the lines not
    /// yet written.
    pub(crate) fn close_stdin(&mut self) {
        self.stdin = None;
        self.queued.clear();
    }

    /// A whole line from what was read, if one is there (or the last one, without its
    /// newline, once stdout ended); a line over the cap ends the reading.
    fn take_line(&mut self) -> Option<Incoming> {
        let end = match memchr::memchr(b'\n', &self.read) {
            Some(at) => at + 1,
            // Enough for the cap, a `\r` and more: too long whatever follows.
            None if self.read.len() > self.cap.saturating_add(1) => self.read.len(),
            None if self.stdout.is_none() && self.failed.is_none() && !self.read.is_empty() => {
                self.read.len()
            }
            None => return None,
        };
        let mut line = Vec::new();
        let mut bytes = self.read.get(..end).unwrap_or_default();
        let outcome = read_line_capped(&mut bytes, self.cap, &mut line);
        self.read.drain(..end);
        match outcome {
            Ok(LineRead::Line) => Some(Incoming::Line(line)),
            Ok(LineRead::TooLong) => {
                line.truncate(400);
                self.give_up_reading();
                Some(Incoming::TooLong(line))
            }
            // Not reached: a slice holding bytes gives a line or a long line.
            Ok(LineRead::Eof) => None,
            Err(err) => {
                self.give_up_reading();
                Some(Incoming::Failed(err))
            }
        }
    }

    fn give_up_reading(&mut self) {
        self.stdout = None;
        self.read = Vec::new();
        self.failed = None;
    }

    /// Whether more may be read now: stdout is open and less than a line over the cap
    /// is held.
    fn may_read(&self) -> bool {
        self.stdout.is_some() && self.read.len() <= self.cap.saturating_add(1)
    }

    /// Writes queued bytes until the pipe is full or nothing is left.
    fn write_some(&mut self) {
        while let (Some(stdin), Some(front)) = (self.stdin.as_mut(), self.queued.front()) {
            let rest = front.get(self.written_of_front..).unwrap_or_default();
            match stdin.write(rest) {
                Ok(0) => {
                    self.fail_write(std::io::Error::new(
                        ErrorKind::WriteZero,
                        "the adapter's input took no bytes",
                    ));
                }
                Ok(n) => {
                    self.written_of_front += n;
                    if self.written_of_front >= front.len() {
                        self.queued.pop_front();
                        self.written_of_front = 0;
                        self.outcomes.push_back(Ok(()));
                    }
                }
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                Err(err) if err.kind() == ErrorKind::WouldBlock => return,
                Err(err) => self.fail_write(err),
            }
        }
    }

    /// A write failed: its line's outcome is the error, stdin is closed and the lines
    /// behind it are never written.
    fn fail_write(&mut self, err: std::io::Error) {
        self.outcomes.push_back(Err(err));
        self.close_stdin();
        self.written_of_front = 0;
    }

    /// Reads what stdout holds now, while [`Pipes::may_read`].
    fn read_some(&mut self) {
        while self.may_read() {
            let Some(stdout) = self.stdout.as_mut() else {
                return;
            };
            match stdout.read(&mut self.chunk) {
                Ok(0) => self.stdout = None,
                Ok(n) => self
                    .read
                    .extend_from_slice(self.chunk.get(..n).unwrap_or_default()),
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                Err(err) if err.kind() == ErrorKind::WouldBlock => return,
                Err(err) => {
                    self.stdout = None;
                    self.failed = Some(err);
                }
            }
        }
    }

    /// Moves bytes both ways, waiting (by `deadline`) until a pipe is ready when
    /// neither moved anything.
    fn wait(&mut self, deadline: Instant) -> Result<(), Wait> {
        let before = (self.outcomes.len(), self.read.len(), self.stdout.is_some());
        self.write_some();
        self.read_some();
        if (self.outcomes.len(), self.read.len(), self.stdout.is_some()) != before {
            return Ok(());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Wait::Timeout);
        }
        let timeout = rustix::time::Timespec {
            tv_sec: i64::try_from(left.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: i64::from(left.subsec_nanos()),
        };
        let mut fds = Vec::with_capacity(2);
        if self.may_read()
            && let Some(stdout) = self.stdout.as_ref()
        {
            fds.push(PollFd::new(stdout, PollFlags::IN));
        }
        if !self.queued.is_empty()
            && let Some(stdin) = self.stdin.as_ref()
        {
            fds.push(PollFd::new(stdin, PollFlags::OUT));
        }
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) => Ok(()),
            Err(rustix::io::Errno::INTR) => Ok(()),
            // Not expected for two pipes: waited out as a timeout would be.
            Err(_) => {
                std::thread::sleep(left.min(std::time::Duration::from_millis(10)));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Child, Command, Stdio};
    use std::time::Duration;

    fn child(script: &str) -> (Child, Pipes) {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh starts");
        let (stdin, stdout) = (child.stdin.take(), child.stdout.take());
        let pipes = Pipes::new(stdin.expect("stdin"), stdout.expect("stdout"), 4, 18)
            .expect("non-blocking pipes");
        (child, pipes)
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(20)
    }

    /// Every line the pipe gives, as `read_line_capped` reads them, until it ends.
    fn all_lines(pipes: &mut Pipes) -> Vec<(LineRead, Vec<u8>)> {
        let mut out = Vec::new();
        loop {
            match pipes.line(soon()) {
                Ok(Incoming::Line(line)) => out.push((LineRead::Line, line)),
                Ok(Incoming::TooLong(start)) => out.push((LineRead::TooLong, start)),
                Ok(Incoming::Failed(err)) => panic!("read failed: {err}"),
                Err(Wait::Timeout) => panic!("no line by the deadline"),
                Err(Wait::Disconnected) => return out,
            }
        }
    }

    #[test]
    fn lines_are_read_as_read_line_capped_reads_them() {
        for (script, want) in [
            (
                r"printf 'ab\r\nabcd\r\nxy\n\nxyz'",
                vec![
                    (LineRead::Line, b"ab".to_vec()),
                    (LineRead::Line, b"abcd".to_vec()),
                    (LineRead::Line, b"xy".to_vec()),
                    (LineRead::Line, Vec::new()),
                    (LineRead::Line, b"xyz".to_vec()),
                ],
            ),
            // A line over the cap ends the reading: what follows is never read.
            (
                r"printf 'ab\nabcde\nxy\n'",
                vec![
                    (LineRead::Line, b"ab".to_vec()),
                    (LineRead::TooLong, b"abcd".to_vec()),
                ],
            ),
            (
                r"printf 'abcd\rx\n'",
                vec![(LineRead::TooLong, b"abcd".to_vec())],
            ),
            (r"printf 'abcd\r'", vec![(LineRead::Line, b"abcd".to_vec())]),
            ("true", Vec::new()),
        ] {
            let (mut child, mut pipes) = child(script);
            assert_eq!(all_lines(&mut pipes), want, "{script}");
            let _ = child.wait();
        }
    }

    /// An endless line is found too long without waiting for its end (it has none).
    #[test]
    fn an_endless_line_is_too_long_at_once() {
        let (mut child, mut pipes) = child("while :; do printf xxxxxxxxxxxxxxxx; done");
        match pipes.line(soon()) {
            Ok(Incoming::TooLong(start)) => assert_eq!(start, b"xxxx"),
            _ => panic!("an endless line is too long"),
        }
        assert!(matches!(pipes.line(soon()), Err(Wait::Disconnected)));
        let _ = child.kill();
        let _ = child.wait();
    }

    #[test]
    fn pipelined_lines_are_written_and_answered_in_order() {
        let (mut child, mut pipes) = child("cat");
        for n in 0..3 {
            for line in [b"ab\n", b"cd\n", b"ef\n"] {
                assert!(pipes.queue(line.to_vec()));
            }
            for want in [b"ab", b"cd", b"ef"] {
                assert!(matches!(pipes.written(soon()), Ok(Ok(()))), "batch {n}");
                match pipes.line(soon()) {
                    Ok(Incoming::Line(line)) => assert_eq!(line, want, "batch {n}"),
                    _ => panic!("cat echoes every line"),
                }
            }
        }
        // More lines than its room are refused, none queued.
        for _ in 0..18 {
            assert!(pipes.queue(b"x\n".to_vec()));
        }
        assert!(!pipes.queue(b"x\n".to_vec()));
        pipes.close_stdin();
        assert!(!pipes.queue(b"x\n".to_vec()));
        let _ = child.kill();
        let _ = child.wait();
    }

    /// A write to an adapter that has ended fails on its own line; the lines behind it
    /// are never written, and no later line is queued. (A child that another test's
    /// thread forks may hold the pipe's read end until it execs, so a line or two can
    /// still be written after the adapter ended: the pairs are sent until one fails.)
    #[test]
    fn a_failed_write_is_its_lines_alone() {
        let (mut child, mut pipes) = child("exit 0");
        let _ = child.wait();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            assert!(Instant::now() < deadline, "no write failed in 10 s");
            assert!(
                pipes.queue(b"first\n".to_vec()),
                "queued while no write failed"
            );
            let second = pipes.queue(b"second\n".to_vec());
            let failed = match pipes.written(soon()) {
                Ok(Ok(())) => match pipes.written(soon()) {
                    // Both written into a pipe still held: try again.
                    Ok(Ok(())) if second => continue,
                    Ok(Err(err)) if second => err,
                    other => panic!("the second line's outcome: {other:?}"),
                },
                Ok(Err(err)) => {
                    // The line behind the failed one is never written.
                    assert!(!second || matches!(pipes.written(soon()), Err(Wait::Disconnected)));
                    err
                }
                other => panic!("the first line's outcome: {other:?}"),
            };
            assert_eq!(failed.kind(), ErrorKind::BrokenPipe);
            break;
        }
        assert!(matches!(pipes.written(soon()), Err(Wait::Disconnected)));
        assert!(!pipes.queue(b"third\n".to_vec()));
        assert!(matches!(pipes.line(soon()), Err(Wait::Disconnected)));
    }

    /// An adapter that neither reads nor answers costs the deadline, no more.
    #[test]
    fn waits_end_at_their_deadline() {
        let (mut child, mut pipes) = child("sleep 30");
        let deadline = Instant::now() + Duration::from_millis(50);
        assert!(matches!(pipes.line(deadline), Err(Wait::Timeout)));
        // More than a pipe holds: its write cannot end while nobody reads.
        assert!(pipes.queue(vec![b'x'; 4 << 20]));
        let deadline = Instant::now() + Duration::from_millis(50);
        assert!(matches!(pipes.written(deadline), Err(Wait::Timeout)));
        let _ = child.kill();
        let _ = child.wait();
    }
}
