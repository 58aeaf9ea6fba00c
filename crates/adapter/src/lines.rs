//! Reading lines of bytes with a cap: a line longer than the cap is never held whole,
//! and bytes that are not UTF-8 are the caller's to judge (no `read_line` into a
//! `String`, which fails on them and grows without bound).

use std::io::{BufRead, ErrorKind};

/// What [`read_line_capped`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// End of input, nothing read.
    Eof,
    /// A whole line (the last one may lack its `\n`).
    Line,
    /// The line is longer than the cap: the buffer holds its first `cap` bytes and the
    /// reader stands inside the line (see [`skip_line`]).
    TooLong,
}

/// Reads one line into `buf` (cleared first), without its `\n` nor a `\r` before it,
/// holding at most `cap` bytes of it: the cap counts the line's content, not its end,
/// so a line of exactly `cap` bytes is read whole whether it ends in `\n` or `\r\n`.
/// Interrupted reads are retried; other errors are returned.
pub fn read_line_capped(
    reader: &mut impl BufRead,
    cap: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<LineRead> {
    buf.clear();
    let mut read_any = false;
    let mut too_long = false;
    // One byte more than the cap is held, for a `\r` before the `\n`.
    let held = cap.saturating_add(1);
    let ended = scan(reader, |available| {
        read_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = available.get(..newline.unwrap_or(available.len()));
        let chunk = chunk.unwrap_or_default();
        let room = held.saturating_sub(buf.len());
        if chunk.len() > room {
            buf.extend_from_slice(chunk.get(..room).unwrap_or_default());
            too_long = true;
            return (room, true);
        }
        buf.extend_from_slice(chunk);
        if newline.is_some() && content_len(buf) > cap {
            // The reader stays before the `\n`: skip_line takes it.
            too_long = true;
            return (chunk.len(), true);
        }
        (
            chunk.len() + usize::from(newline.is_some()),
            newline.is_some(),
        )
    })?;
    if too_long || content_len(buf) > cap {
        buf.truncate(cap);
        return Ok(LineRead::TooLong);
    }
    if !ended && !read_any {
        return Ok(LineRead::Eof);
    }
    strip_cr(buf);
    Ok(LineRead::Line)
}

/// The length of a line's content: without a `\r` it ends with.
fn content_len(buf: &[u8]) -> usize {
    buf.len() - usize::from(buf.last() == Some(&b'\r'))
}

/// Discards input up to and including the next `\n` (or to the end), holding none of
/// it: after [`LineRead::TooLong`], to go on with the next line.
pub fn skip_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    scan(reader, |available| {
        match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        }
    })?;
    Ok(())
}

/// Hands the reader's buffered input to `take`, chunk by chunk, and consumes what it
/// used, until `take` says it is done (`Ok(true)`) or the input ends (`Ok(false)`).
/// `take` answers (bytes used, done). Interrupted reads are retried; other errors are
/// returned.
fn scan(
    reader: &mut impl BufRead,
    mut take: impl FnMut(&[u8]) -> (usize, bool),
) -> std::io::Result<bool> {
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(false);
        }
        let (used, done) = take(available);
        reader.consume(used);
        if done {
            return Ok(true);
        }
    }
}

fn strip_cr(buf: &mut Vec<u8>) {
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn all(input: &[u8], cap: usize) -> Vec<(LineRead, Vec<u8>)> {
        // A tiny buffer, so that lines span many fill_buf calls.
        let mut reader = BufReader::with_capacity(3, input);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        loop {
            let read = read_line_capped(&mut reader, cap, &mut buf).unwrap_or(LineRead::Eof);
            if read == LineRead::Eof {
                return out;
            }
            if read == LineRead::TooLong {
                skip_line(&mut reader).unwrap_or_default();
            }
            out.push((read, buf.clone()));
        }
    }

    #[test]
    fn lines_are_split_and_capped() {
        let got = all(b"ab\r\ncdefgh\n\nxyz\xff", 4);
        assert_eq!(
            got,
            vec![
                (LineRead::Line, b"ab".to_vec()),
                (LineRead::TooLong, b"cdef".to_vec()),
                (LineRead::Line, Vec::new()),
                (LineRead::Line, b"xyz\xff".to_vec()),
            ]
        );
        assert_eq!(all(b"", 4), Vec::new());
        assert_eq!(all(b"abcd", 4), vec![(LineRead::Line, b"abcd".to_vec())]);
        assert_eq!(
            all(b"abcde", 4),
            vec![(LineRead::TooLong, b"abcd".to_vec())]
        );
    }

    #[test]
    fn the_cap_counts_the_content_not_the_line_end() {
        // Exactly the cap, ended by CRLF, by LF or by nothing: read whole.
        for input in [&b"abcd\r\nxy\n"[..], b"abcd\nxy\n", b"abcd\r\nxy"] {
            assert_eq!(
                all(input, 4),
                vec![
                    (LineRead::Line, b"abcd".to_vec()),
                    (LineRead::Line, b"xy".to_vec())
                ],
                "{input:?}"
            );
        }
        assert_eq!(all(b"abcd\r", 4), vec![(LineRead::Line, b"abcd".to_vec())]);
        // One byte of content more is too long, whatever ends the line, and the next
        // line is still read.
        for input in [&b"abcde\r\nxy\n"[..], b"abcde\nxy\n", b"abcd\rx\nxy\n"] {
            assert_eq!(
                all(input, 4),
                vec![
                    (LineRead::TooLong, b"abcd".to_vec()),
                    (LineRead::Line, b"xy".to_vec())
                ],
                "{input:?}"
            );
        }
        assert_eq!(
            all(b"abcde", 4),
            vec![(LineRead::TooLong, b"abcd".to_vec())]
        );
    }
}
