//! `bloomproof explain` and `bloomproof positions`: every stage of one hash, for people
//! whose implementation differs and who want to see exactly where.

use bloomproof_conformance::protocols::doc_membership_v1::diagnose::message_layout;
use bloomproof_conformance::quote::prefix;
use bloomproof_protocol::doc_membership_v1 as doc;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use bloomproof_wire::positions::{DocPositions, FnvPositions};
use bloomproof_wire::protocols::doc_membership_v1::Stage;
use bloomproof_wire::{DocParams, Hex};
use clap::{ArgGroup, Args, Subcommand};
use std::fmt::Write as _;

/// Which protocol, with its inputs.
#[derive(Subcommand)]
pub enum Target {
    /// SHA-256 over the length-framed message, positions digest mod m.
    #[command(name = doc::NAME)]
    Doc(DocArgs),
    /// FNV-1a over UTF-16 code units, positions (h1 + i*h2) mod m.
    #[command(name = fnv::NAME)]
    Fnv(FnvArgs),
}

/// Inputs of a `doc-membership-v1` hash. The seed is given at most one way (none: the
/// empty seed), the item exactly one way.
#[derive(Args)]
#[command(group = ArgGroup::new("seed").args(["seed_hex", "seed_text"]))]
#[command(group = ArgGroup::new("item").required(true).args(["item_hex", "item_text"]))]
pub struct DocArgs {
    /// Number of bits, 8..=512.
    #[arg(long)]
    m: u64,
    /// Number of hash indices, 1..=8.
    #[arg(long)]
    k: u64,
    /// The seed as hex (0..=16 bytes).
    #[arg(long)]
    seed_hex: Option<String>,
    /// The seed as text (its UTF-8 bytes).
    #[arg(long)]
    seed_text: Option<String>,
    /// The item as hex (0..=64 bytes).
    #[arg(long)]
    item_hex: Option<String>,
    /// The item as text (its UTF-8 bytes).
    #[arg(long)]
    item_text: Option<String>,
}

/// Inputs of a `fnv1a-utf16-v1` hash; the string is given exactly one way.
#[derive(Args)]
#[command(group = ArgGroup::new("string").required(true).args(["text", "units_hex"]))]
pub struct FnvArgs {
    /// Number of bits, 8..=1024.
    #[arg(long)]
    m: u64,
    /// Number of hash indices, 1..=12.
    #[arg(long)]
    k: u64,
    /// The string as text (encoded to UTF-16).
    #[arg(long)]
    text: Option<String>,
    /// The string as UTF-16 code units, four hex digits each (e.g. `d800` for a lone
    /// surrogate); spaces and commas between units are allowed.
    #[arg(long)]
    units_hex: Option<String>,
}

fn bytes(hex_text: Option<&str>, text: Option<&str>, what: &str) -> Result<Vec<u8>, String> {
    match (hex_text, text) {
        (Some(h), _) => {
            bloomproof_wire::decode_hex(h.trim()).map_err(|err| format!("--{what}-hex: {err}"))
        }
        (None, Some(t)) => Ok(t.as_bytes().to_vec()),
        (None, None) => Ok(Vec::new()),
    }
}

fn units(args: &FnvArgs) -> Result<Vec<u16>, String> {
    if let Some(text) = &args.text {
        return Ok(fnv::units(text));
    }
    let raw = args.units_hex.as_deref().unwrap_or_default();
    // Each character is judged where the user wrote it (spaces and commas count), so a
    // position in a message points at the character.
    let mut digits = Vec::new();
    for (position, c) in raw.chars().enumerate() {
        if matches!(c, ' ' | ',') {
            continue;
        }
        let Some(digit) = c.to_digit(16) else {
            return Err(format!(
                "--units-hex {}: character {position} (counting from 0, spaces included), {c:?}, is not a hex digit; give each code unit as four hex digits, such as 0061",
                prefix(raw)
            ));
        };
        digits.push(digit);
    }
    if digits.is_empty() || !digits.len().is_multiple_of(4) {
        return Err(format!(
            "--units-hex {}: {} hex digits; each code unit takes exactly four",
            prefix(raw),
            digits.len()
        ));
    }
    Ok(digits
        .chunks_exact(4)
        .map(|unit| {
            unit.iter()
                .fold(0u16, |acc, &d| (acc << 4) | u16::try_from(d).unwrap_or(0))
        })
        .collect())
}

fn quoted(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => format!(" {text:?}"),
        Err(_) => String::new(),
    }
}

fn hex_of(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "(empty)".to_string()
    } else {
        hex::encode(bytes)
    }
}

struct DocInputs {
    params: doc::Params,
    item: Vec<u8>,
}

fn doc_inputs(args: &DocArgs) -> Result<DocInputs, String> {
    let seed = bytes(args.seed_hex.as_deref(), args.seed_text.as_deref(), "seed")?;
    let item = bytes(args.item_hex.as_deref(), args.item_text.as_deref(), "item")?;
    let params = doc::Params::new(args.m, args.k, &seed).map_err(|e| e.to_string())?;
    doc::check_item(&item).map_err(|e| e.to_string())?;
    Ok(DocInputs { params, item })
}

fn fnv_inputs(args: &FnvArgs) -> Result<(fnv::Params, Vec<u16>), String> {
    let params = fnv::Params::new(args.m, args.k).map_err(|e| e.to_string())?;
    let units = units(args)?;
    if units.is_empty() || units.len() > 256 {
        return Err(format!(
            "the string is {} code units long: must be 1..=256",
            units.len()
        ));
    }
    Ok((params, units))
}

fn packed(m: u16, positions: &[u16]) -> Vec<u8> {
    let mut out = vec![0u8; usize::from(m).div_ceil(8)];
    for &p in positions {
        if let Some(byte) = out.get_mut(usize::from(p / 8)) {
            *byte |= 1 << (p % 8);
        }
    }
    out
}

/// The text explanation.
pub fn explain(target: &Target) -> Result<String, String> {
    let mut out = String::new();
    match target {
        Target::Doc(args) => {
            let DocInputs { params, item } = doc_inputs(args)?;
            let (m, k, seed) = (params.m(), params.k(), params.seed());
            let _ = writeln!(
                out,
                "{}: SHA-256 over a length-framed message, position = digest mod m",
                doc::NAME
            );
            let _ = writeln!(out, "m = {m}, k = {k}");
            let _ = writeln!(
                out,
                "seed = {} ({} bytes){}",
                hex_of(seed),
                seed.len(),
                quoted(seed)
            );
            let _ = writeln!(
                out,
                "item = {} ({} bytes){}",
                hex_of(&item),
                item.len(),
                quoted(&item)
            );
            let mut positions = Vec::new();
            for index in 0..k {
                let message = doc::message(&params, index, &item).map_err(|e| e.to_string())?;
                let digest = doc::digest(&params, index, &item).map_err(|e| e.to_string())?;
                let position = doc::reduce(&digest, m);
                positions.push(position);
                let _ = writeln!(out, "\nhash index {index}");
                let _ = writeln!(
                    out,
                    "  message, {} bytes (multi-byte integers big-endian):",
                    message.as_bytes().len()
                );
                for field in message_layout(seed.len(), item.len()) {
                    let bytes = message
                        .as_bytes()
                        .get(field.offset..field.offset + field.len)
                        .unwrap_or_default();
                    let note = match field.label {
                        "domain" => format!("{:?} and one zero byte", doc::NAME),
                        "m" => format!("{m}, 2 bytes"),
                        "k" => format!("{k}, 1 byte"),
                        "len(seed)" => format!("{}, 1 byte", seed.len()),
                        "seed" => format!("{} bytes", seed.len()),
                        "i" => format!("hash index {index}, 1 byte"),
                        "len(item)" => format!("{}, 2 bytes", item.len()),
                        _ => format!("{} bytes", item.len()),
                    };
                    let _ = writeln!(out, "    {:<10} {:<38} {note}", field.label, hex_of(bytes));
                }
                let _ = writeln!(out, "  message    {}", hex::encode(message.as_bytes()));
                let _ = writeln!(out, "  sha256     {}", hex::encode(digest));
                let _ = writeln!(
                    out,
                    "  reduction  int(sha256, big-endian) mod {m}, one 64-bit limb at a time: r = (r * 2^64 + limb) mod {m}"
                );
                let mut r: u128 = 0;
                for (i, limb) in digest.chunks_exact(8).enumerate() {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(limb);
                    let value = u64::from_be_bytes(word);
                    let next = ((r << 64) | u128::from(value)) % u128::from(m);
                    let _ = writeln!(
                        out,
                        "    limb {i} {value:016x}: ({r} * 2^64 + {value}) mod {m} = {next}"
                    );
                    r = next;
                }
                let _ = writeln!(out, "  position   {position}");
            }
            let bits = packed(m, &positions);
            let mut distinct = positions.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let _ = writeln!(out, "\npositions in hash-index order: {positions:?}");
            let _ = writeln!(
                out,
                "bits set in a snapshot of just this item: {distinct:?}"
            );
            let _ = writeln!(
                out,
                "packed bits, ceil({m}/8) = {} bytes little-endian (bit p is bit p%8 of byte p/8): {}",
                bits.len(),
                hex::encode(&bits)
            );
        }
        Target::Fnv(args) => {
            let (params, units) = fnv_inputs(args)?;
            let (m, k) = (params.m(), params.k());
            let hashes = fnv::base_hashes(&units);
            let _ = writeln!(
                out,
                "{}: FNV-1a over UTF-16 code units, position i = (h1 + i*h2) mod m, no 32-bit wrap",
                fnv::NAME
            );
            let _ = writeln!(out, "m = {m}, k = {k}");
            let listed: Vec<String> = units.iter().map(|u| format!("{u:04x}")).collect();
            let _ = writeln!(out, "code units ({}): {}", units.len(), listed.join(" "));
            for (name, basis, forced) in [("h1", fnv::BASIS_H1, false), ("h2", fnv::BASIS_H2, true)]
            {
                let _ = writeln!(
                    out,
                    "\n{name}: start from basis {basis} ({basis:#010x}); per unit u: h = (h XOR u) * 16777619 mod 2^32"
                );
                let mut h = basis;
                for (i, &u) in units.iter().enumerate() {
                    let xored = h ^ u32::from(u);
                    let next = xored.wrapping_mul(fnv::PRIME);
                    if i < 16 || i + 2 >= units.len() {
                        let _ = writeln!(
                            out,
                            "  unit {i:>3} {u:04x}: ({h} XOR {u}) = {xored}; * 16777619 mod 2^32 = {next}"
                        );
                    } else if i == 16 {
                        let _ = writeln!(out, "  ... ({} more units)", units.len() - 18);
                    }
                    h = next;
                }
                if forced {
                    let _ = writeln!(out, "  forced odd: {h} | 1 = {}", h | 1);
                    h |= 1;
                }
                let _ = writeln!(out, "  {name} = {h}");
            }
            let _ = writeln!(out, "\npositions:");
            let mut positions = Vec::new();
            for i in 0..k {
                let sum = u64::from(hashes.h1) + u64::from(i) * u64::from(hashes.h2);
                let position = fnv::position(hashes, i, m);
                positions.push(position);
                let wrapped = (sum % (1 << 32)) % u64::from(m);
                let note = if sum >= 1 << 32 {
                    if wrapped == u64::from(position) {
                        format!("   (sum >= 2^32; a 32-bit wrap happens to give {wrapped} too)")
                    } else {
                        format!("   (sum >= 2^32; a 32-bit wrap would give {wrapped}: wrong)")
                    }
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  i = {i:>2}: {} + {i} * {} = {sum}; mod {m} = {position}{note}",
                    hashes.h1, hashes.h2
                );
            }
            let _ = writeln!(out, "\npositions in order: {positions:?}");
        }
    }
    Ok(out)
}

/// The same as JSON, in the spec's field names ([`DocPositions`], [`FnvPositions`]).
pub fn positions(target: &Target) -> Result<serde_json::Value, String> {
    let value = match target {
        Target::Doc(args) => {
            let DocInputs { params, item } = doc_inputs(args)?;
            let mut stages = Vec::new();
            let mut positions = Vec::new();
            for index in 0..params.k() {
                let message = doc::message(&params, index, &item).map_err(|e| e.to_string())?;
                let digest = doc::digest(&params, index, &item).map_err(|e| e.to_string())?;
                let position = doc::reduce(&digest, params.m());
                positions.push(position);
                stages.push(Stage {
                    message_hex: Hex(message.as_bytes().to_vec()),
                    digest_hex: Hex(digest.to_vec()),
                    position,
                });
            }
            serde_json::to_value(DocPositions {
                protocol: doc::NAME.to_string(),
                params: DocParams {
                    m: params.m().into(),
                    k: params.k().into(),
                    seed_hex: Hex(params.seed().to_vec()),
                },
                item_hex: Hex(item),
                stages,
                packed_hex: Hex(packed(params.m(), &positions)),
                positions,
            })
        }
        Target::Fnv(args) => {
            let (params, units) = fnv_inputs(args)?;
            let hashes = fnv::base_hashes(&units);
            serde_json::to_value(FnvPositions {
                protocol: fnv::NAME.to_string(),
                m: params.m().into(),
                k: params.k().into(),
                h1: hashes.h1,
                h2: hashes.h2,
                positions: fnv::positions(&params, hashes).to_vec(),
                units,
            })
        }
    };
    value.map_err(|err| format!("the answer does not serialise: {err}"))
}
