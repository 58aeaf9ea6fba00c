//! Short quotes of untrusted text in error messages: a bad value is named by at most
//! [`QUOTE_MAX`] characters of it and its length, never echoed whole (a 10 MB bad hex
//! string gives a one-line error, not a 10 MB one).

pub use bloomproof_format::{QUOTE_MAX, quote_prefix as prefix, untrusted};

/// `message` with every quoted run (between `"` or between `` ` ``) longer than
/// [`QUOTE_MAX`] characters cut to its first [`QUOTE_MAX`] and `…` (backslash escapes
/// inside `"` are kept whole), and the whole message cut after `5 * QUOTE_MAX`
/// characters of unquoted text. For messages built by code that quotes what it was
/// given (serde's `invalid type: string "..."` and ``unknown field `...` ``, a `{:?}`
/// of an input). Shortening twice changes nothing more.
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut chars = message.chars();
    let mut plain = 0usize;
    while let Some(c) = chars.next() {
        if c != '"' && c != '`' {
            plain += 1;
            if plain > 5 * QUOTE_MAX {
                let rest = chars.count() + 1;
                out.push_str(&format!("… ({rest} more characters)"));
                return out;
            }
            out.push(c);
            continue;
        }
        // A quoted run: the whole of it when it has at most QUOTE_MAX + 1 characters
        // (what a cut leaves), else its first QUOTE_MAX and `…`.
        let close = c;
        let mut run: Vec<String> = Vec::new();
        let mut skipped = 0usize;
        let mut closed = false;
        // Inside `"`, a backslash and the character after it are one escape.
        let mut escape: Option<bool> = None; // Some(kept) after a backslash
        for c in chars.by_ref() {
            if let Some(kept) = escape.take() {
                match run.last_mut().filter(|_| kept) {
                    Some(last) => last.push(c),
                    None => skipped += 1,
                }
                continue;
            }
            if c == close {
                closed = true;
                break;
            }
            let kept = run.len() <= QUOTE_MAX;
            if kept {
                run.push(c.to_string());
            } else {
                skipped += 1;
            }
            if close == '"' && c == '\\' {
                escape = Some(kept);
            }
        }
        out.push(close);
        if skipped > 0 {
            run.truncate(QUOTE_MAX);
            out.push_str(&run.concat());
            out.push('…');
        } else {
            out.push_str(&run.concat());
        }
        if closed {
            out.push(close);
        }
        if skipped > 0 {
            out.push_str(&format!(" ({} more characters)", skipped + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(prefix("abc"), "\"abc\"");
        assert_eq!(prefix(""), "\"\"");
        let exact = "x".repeat(QUOTE_MAX);
        assert_eq!(prefix(&exact), format!("{exact:?}"));
    }

    #[test]
    fn long_text_is_cut_with_its_length() {
        let text = "é".repeat(10_000);
        let quoted = prefix(&text);
        assert!(quoted.starts_with(&format!("\"{}…\"", "é".repeat(QUOTE_MAX))));
        assert!(quoted.ends_with("(20000 bytes)"), "{quoted}");
    }

    #[test]
    fn long_quotes_in_a_message_are_cut() {
        let message = format!(
            "invalid type: string \"{}\", expected u64 at line 1 column 9",
            "a\\\"".repeat(1_000_000)
        );
        let short = shorten_quotes(&message);
        assert!(short.len() < 400, "{}", short.len());
        assert!(short.contains("expected u64 at line 1 column 9"), "{short}");
        assert!(short.contains("more characters"), "{short}");
        assert_eq!(shorten_quotes("plain \"ok\" text"), "plain \"ok\" text");
        assert_eq!(shorten_quotes("unclosed \"abc"), "unclosed \"abc");
        let long = "y".repeat(100_000);
        assert!(shorten_quotes(&long).len() < 500);
        // Shortening twice, or a prefix() quote, changes nothing more.
        assert_eq!(shorten_quotes(&short), short);
        let quoted = format!("bad hex {}: odd", prefix(&"z".repeat(1000)));
        assert_eq!(shorten_quotes(&quoted), quoted);
        let ticks = format!("unknown field `{}`, expected `data`", "k".repeat(1000));
        let cut = shorten_quotes(&ticks);
        assert!(
            cut.starts_with(&format!(
                "unknown field `{}…` (936 more characters), expected `data`",
                "k".repeat(QUOTE_MAX)
            )),
            "{cut}"
        );
    }
}
