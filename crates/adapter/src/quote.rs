//! Short quotes of untrusted text in error messages: a bad value is named by at most
//! [`QUOTE_MAX`] characters of it and its length, never echoed whole (a 10 MB bad hex
//! string gives a one-line error, not a 10 MB one).

pub use bloomproof_wire::{QUOTE_MAX, quote_prefix as prefix, untrusted};

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

/// The first integer literal of the JSON text `json` (outside strings) too large for
/// 64 bits (above 2^64 - 1, or below -2^63) whose value read as a float is `float`
/// (any such literal when `float` is `None`), if any.
fn huge_integer(json: &str, float: Option<f64>) -> Option<&str> {
    let bytes = json.as_bytes();
    let mut at = 0;
    let mut in_string = false;
    while at < bytes.len() {
        let b = bytes[at];
        if in_string {
            match b {
                b'\\' => at += 1,
                b'"' => in_string = false,
                _ => {}
            }
            at += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            at += 1;
            continue;
        }
        if b == b'-' || b.is_ascii_digit() {
            let start = at;
            while at < bytes.len()
                && matches!(bytes[at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
            {
                at += 1;
            }
            let token = json.get(start..at).unwrap_or_default();
            let integer = token.trim_start_matches('-');
            if !integer.is_empty() && integer.bytes().all(|b| b.is_ascii_digit()) {
                let fits = if token.starts_with('-') {
                    token.parse::<i64>().is_ok()
                } else {
                    token.parse::<u64>().is_ok()
                };
                if !fits && float.is_none_or(|f| token.parse::<f64>().ok() == Some(f)) {
                    return Some(token);
                }
            }
            continue;
        }
        at += 1;
    }
    None
}

/// The integer literal of the JSON text `json` too large for 64 bits that serde_json
/// read as `float`, as written, if there is one.
pub fn huge_integer_as_written(json: &str, float: f64) -> Option<&str> {
    huge_integer(json, Some(float))
}

/// serde_json's `message` about the JSON text `json`, with a number it read as
/// floating point because it is an integer too large for 64 bits (`invalid type:
/// floating point `1.8446744073709552e+19``) called what it is: an integer out of range,
/// quoted as written.
pub fn name_huge_integers(message: &str, json: &str) -> String {
    const FLOAT: &str = "invalid type: floating point `";
    let Some(start) = message.find(FLOAT) else {
        return message.to_string();
    };
    let rest = message.get(start + FLOAT.len()..).unwrap_or_default();
    let Some(end) = rest.find('`') else {
        return message.to_string();
    };
    let float = rest.get(..end).and_then(|f| f.parse::<f64>().ok());
    let Some(huge) = huge_integer(json, float) else {
        return message.to_string();
    };
    let after = rest.get(end + 1..).unwrap_or_default();
    format!(
        "{}integer out of range: {} does not fit in 64 bits{after}",
        message.get(..start).unwrap_or_default(),
        prefix(huge)
    )
}

/// Text from the adapter (a response, a request quoted beside it) as a message shows
/// it: control characters escaped, at most 400 characters and its length.
pub fn shorten(text: &str) -> String {
    untrusted(text, 400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_integers_are_named_not_called_floats() {
        let json = r#"{"s":"99999999999999999999","m":18446744073709551616,"k":1.5e30}"#;
        assert_eq!(
            name_huge_integers(
                "invalid type: floating point `1.8446744073709552e+19`, expected u64",
                json
            ),
            "integer out of range: \"18446744073709551616\" does not fit in 64 bits, expected u64"
        );
        assert_eq!(
            huge_integer(
                r#"{"m":18446744073709551615,"k":-9223372036854775808}"#,
                None
            ),
            None
        );
        assert_eq!(
            huge_integer(r#"[-9223372036854775809]"#, None),
            Some("-9223372036854775809")
        );
        // Of several huge integers, the one serde read as the float it names.
        assert_eq!(
            name_huge_integers(
                "invalid type: floating point `1e20`, expected u32",
                r#"[18446744073709551616, 99999999999999999999]"#
            ),
            "integer out of range: \"99999999999999999999\" does not fit in 64 bits, expected u32"
        );
        // A true float keeps serde's words.
        let float = "invalid type: floating point `1.5`, expected u64";
        assert_eq!(name_huge_integers(float, r#"{"m":1.5}"#), float);
    }

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
