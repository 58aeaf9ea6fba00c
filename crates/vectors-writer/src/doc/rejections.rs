//! `<version>/rejections`: typed inputs that production must reject with a given
//! error, hand-picked (`data/doc-membership-v1.hand-picked.json`: v1's bound edges,
//! taken by a version with v1's bounds) or swept (from the version's bounds).

use super::{Doc, REJECTION_SEED, REJECTION_SWEEP};
use crate::FlagSet;
use crate::prng::SplitMix64;
use bloomproof_adapter::ToDynamic;
use bloomproof_filter::ErrorKind;
use bloomproof_filter::dynamic;
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_wire::protocols::doc_membership_v1::DocRejectionCase;
use bloomproof_wire::protocols::doc_membership_v1::TypedCall;
use bloomproof_wire::{ErrorKindName, Hex, RejectExpect, TypedValue};

/// The largest integer every JSON reader holds exactly (2^53 - 1).
const SAFE_INT: i64 = (1 << 53) - 1;

fn int(n: i64) -> TypedValue {
    TypedValue::Int(i128::from(n))
}

fn bytes(b: &[u8]) -> TypedValue {
    TypedValue::Bytes(Hex(b.to_vec()))
}

fn tuple(items: Vec<TypedValue>) -> TypedValue {
    TypedValue::Tuple(items)
}

/// Every integer inside a typed value is within +-(2^53 - 1).
fn ints_are_safe(value: &TypedValue) -> bool {
    match value {
        TypedValue::Int(n) => (-i128::from(SAFE_INT)..=i128::from(SAFE_INT)).contains(n),
        TypedValue::Tuple(items) | TypedValue::List(items) => items.iter().all(ints_are_safe),
        _ => true,
    }
}

/// Whether an out-of-range integer (or length) lands in `low..=high` when truncated to
/// 8, 16 or 32 bits, as a careless implementation would.
fn truncation_trap(n: i128, low: u32, high: u32) -> bool {
    let range = i128::from(low)..=i128::from(high);
    !range.contains(&n)
        && [8u32, 16, 32]
            .iter()
            .any(|&bits| range.contains(&n.rem_euclid(1 << bits)))
}

impl Doc<'_> {
    /// Keeps a rejection built by construction (the inputs and the error the source
    /// document's check order says they must give) only if production (`filter::dynamic`,
    /// the version's) gives exactly that error; adds `type-error` or `value-error` and
    /// sorts the flags.
    fn check(&self, mut case: DocRejectionCase) -> Result<DocRejectionCase, String> {
        let DocRejectionCase {
            id,
            input:
                TypedCall {
                    records,
                    m,
                    k,
                    seed,
                    item,
                },
            expect: RejectExpect { error, field },
            ..
        } = &case;
        let error = *error;
        for value in [records, m, k, seed].into_iter().chain(item.as_ref()) {
            if !ints_are_safe(value) {
                return Err(self.io(id, "an integer is beyond 2^53 - 1 (a writer bug)"));
            }
        }
        let built = dynamic::build_of(
            self.version.family,
            &records.to_dynamic(),
            &m.to_dynamic(),
            &k.to_dynamic(),
            &seed.to_dynamic(),
        );
        let got = match (&item, built) {
            (None, Ok(_)) => return Err(self.io(id, "production accepted the construction")),
            (None, Err(err)) => err,
            (Some(_), Err(err)) => {
                return Err(self.io(
                    id,
                    format!("production rejected the construction, which must succeed: {err}"),
                ));
            }
            (Some(item), Ok(snapshot)) => match dynamic::lookup(&snapshot, &item.to_dynamic()) {
                Ok(_) => return Err(self.io(id, "production accepted the lookup")),
                Err(err) => err,
            },
        };
        let got_kind = match got.kind() {
            ErrorKind::Type => ErrorKindName::Type,
            ErrorKind::Value => ErrorKindName::Value,
        };
        if (got_kind, got.field()) != (error, field.as_str()) {
            return Err(self.io(
                id,
                format!(
                    "production gives a {} error in {}, the construction rules a {} error in {field}",
                    got_kind.as_str(),
                    got.field(),
                    error.as_str()
                ),
            ));
        }
        let mut flags = FlagSet::default();
        flags.extend(&case.flags).map_err(|err| self.io(id, err))?;
        flags.set("type-error", error == ErrorKindName::Type);
        flags.set("value-error", error == ErrorKindName::Value);
        case.flags = flags.into_vec();
        Ok(case)
    }

    /// A hand-picked rejection of `data/doc-membership-v1.hand-picked.json` with the flags
    /// the writer derives ([`crate::hand_picked::DERIVED`]).
    fn hand_picked(&self, mut r: DocRejectionCase) -> DocRejectionCase {
        let b = self.bounds;
        let flags = &mut r.flags;
        flags.push("boundary".into());
        let records = match &r.input.records {
            TypedValue::Tuple(records) => Some(records.as_slice()),
            _ => None,
        };
        if records.is_some_and(|records| records.len() == b.records_max) {
            flags.push("max-records".into());
        }
        if records.is_some_and(<[TypedValue]>::is_empty) {
            flags.push("empty-snapshot".into());
        }
        if r.expect.error == ErrorKindName::Value {
            let field = r.expect.field.as_str();
            let record = field
                .strip_prefix("records[")
                .and_then(|rest| rest.strip_suffix(']'))
                .and_then(|index| index.parse::<usize>().ok())
                .and_then(|index| records?.get(index));
            let item_max = b.item_max as u32;
            let faulted = match field {
                "m" => Some((&r.input.m, b.m[0], b.m[1])),
                "k" => Some((&r.input.k, b.k[0], b.k[1])),
                "seed" => Some((&r.input.seed, 0, b.seed_max as u32)),
                "records" => Some((&r.input.records, 0, b.records_max as u32)),
                "item" => r.input.item.as_ref().map(|item| (item, 0, item_max)),
                _ => record.map(|record| (record, 0, item_max)),
            };
            let trap = faulted.is_some_and(|(value, low, high)| {
                size(value).is_some_and(|n| truncation_trap(n, low, high))
            });
            if trap {
                flags.push("truncation-trap".into());
            }
        }
        r
    }

    /// Every rejection case: the hand-picked ones (for a version with v1's bounds), then
    /// the sweep.
    pub(crate) fn rejections(&self) -> Result<Vec<DocRejectionCase>, String> {
        let mut out: Vec<DocRejectionCase> = Vec::new();
        if self.bounds == protocol::BOUNDS {
            let picked = self.hand_picked.rejections.iter().cloned();
            out.extend(picked.map(|r| self.hand_picked(r)));
        }

        // The sweep: a random valid base with one random fault, expected by construction.
        let mut rng = SplitMix64::new(REJECTION_SEED);
        for n in 0..REJECTION_SWEEP {
            out.push(self.sweep_rejection(&mut rng, format!("sweep/{n:04}")));
        }
        out.into_iter().map(|case| self.check(case)).collect()
    }
}

/// What a bound applies to: an integer's value, a byte string's or a tuple's length.
fn size(value: &TypedValue) -> Option<i128> {
    match value {
        TypedValue::Int(n) => Some(*n),
        TypedValue::Bytes(hex) => Some(hex.0.len() as i128),
        TypedValue::Tuple(items) => Some(items.len() as i128),
        _ => None,
    }
}

fn random_bytes_value(rng: &mut SplitMix64, max: usize) -> TypedValue {
    let len = rng.range_usize(0, max);
    bytes(&rng.bytes(len))
}

/// A value of a wrong kind for a field that wants `want` (`int`, `bytes` or `tuple`).
fn wrong_kind(rng: &mut SplitMix64, want: &str) -> TypedValue {
    let text: String = (0..rng.range_usize(0, 8))
        .map(|_| char::from(b'a' + rng.below(26) as u8))
        .collect();
    let raw = rng.bytes_between(0, 8);
    loop {
        let candidate = match rng.below(9) {
            0 => TypedValue::Str(text.clone()),
            1 => TypedValue::Bytearray(Hex(raw.clone())),
            2 => TypedValue::Memoryview(Hex(raw.clone())),
            3 => int(rng.range(0, 600) as i64),
            4 => TypedValue::Bool(rng.chance(50)),
            5 => {
                TypedValue::Float(rng.range(0, 600) as f64 / if rng.chance(50) { 1.0 } else { 4.0 })
            }
            6 => tuple(vec![bytes(&raw)]),
            7 => TypedValue::List(vec![bytes(&raw)]),
            _ => bytes(&raw),
        };
        let kind = match candidate {
            TypedValue::Int(_) => "int",
            TypedValue::Bytes(_) => "bytes",
            TypedValue::Tuple(_) => "tuple",
            _ => "other",
        };
        if kind != want {
            return candidate;
        }
    }
}

/// An integer outside `low..=high`, sometimes one that truncates into range.
fn out_of_range(rng: &mut SplitMix64, low: u32, high: u32) -> i64 {
    loop {
        let valid = rng.range(low.into(), high.into()) as i64;
        let shift = [8, 16, 32][rng.below(3) as usize];
        let n = match rng.below(5) {
            0 => -(rng.range(1, 1 << 40) as i64),
            1 => rng.range(0, u64::from(low.saturating_sub(1))) as i64,
            2 => rng.range(u64::from(high) + 1, 1 << 40) as i64,
            3 => valid + (rng.range(1, 255) as i64) * (1i64 << shift),
            _ => rng.range(u64::from(high) + 1, u64::from(high) * 4) as i64,
        };
        if !(i64::from(low)..=i64::from(high)).contains(&n) {
            return n;
        }
    }
}

impl Doc<'_> {
    fn sweep_rejection(&self, rng: &mut SplitMix64, id: String) -> DocRejectionCase {
        use ErrorKindName::{Type, Value as Val};
        let b = self.bounds;
        let m = self.sweep_m(rng);
        let k = self.sweep_k(rng);
        let seed = random_bytes_value(rng, b.seed_max);
        let records: Vec<TypedValue> = (0..rng.range_usize(0, 6))
            .map(|_| random_bytes_value(rng, 16))
            .collect();
        let type_fault = rng.chance(50);
        let mut r = DocRejectionCase {
            id,
            flags: vec!["sweep".into()],
            input: TypedCall {
                records: tuple(records.clone()),
                m: int(m.into()),
                k: int(k.into()),
                seed,
                item: None,
            },
            expect: RejectExpect {
                error: if type_fault { Type } else { Val },
                field: String::new(),
            },
        };
        let mut trap = false;
        match rng.below(6) {
            0 => {
                r.expect.field = "m".into();
                r.input.m = if type_fault {
                    wrong_kind(rng, "int")
                } else {
                    let n = out_of_range(rng, b.m[0], b.m[1]);
                    trap = truncation_trap(n.into(), b.m[0], b.m[1]);
                    int(n)
                };
            }
            1 => {
                r.expect.field = "k".into();
                r.input.k = if type_fault {
                    wrong_kind(rng, "int")
                } else {
                    let n = out_of_range(rng, b.k[0], b.k[1]);
                    trap = truncation_trap(n.into(), b.k[0], b.k[1]);
                    int(n)
                };
            }
            2 => {
                r.expect.field = "seed".into();
                r.input.seed = if type_fault {
                    wrong_kind(rng, "bytes")
                } else {
                    bytes(&rng.bytes_between(b.seed_max + 1, 32))
                };
            }
            3 => {
                r.expect.field = "records".into();
                r.input.records = if type_fault {
                    match wrong_kind(rng, "tuple") {
                        TypedValue::List(_) => TypedValue::List(records),
                        other => other,
                    }
                } else {
                    let count = rng.range_usize(b.records_max + 1, 70);
                    tuple((0..count).map(|_| random_bytes_value(rng, 4)).collect())
                };
            }
            4 => {
                let mut records = records;
                if records.is_empty() {
                    records.push(bytes(b"a"));
                }
                let at = rng.range_usize(0, records.len() - 1);
                r.expect.field = format!("records[{at}]");
                records[at] = if type_fault {
                    wrong_kind(rng, "bytes")
                } else {
                    bytes(&rng.bytes_between(b.item_max + 1, 80))
                };
                r.input.records = tuple(records);
            }
            _ => {
                r.expect.field = "item".into();
                r.input.item = Some(if type_fault {
                    wrong_kind(rng, "bytes")
                } else {
                    bytes(&rng.bytes_between(b.item_max + 1, 80))
                });
            }
        }
        if trap {
            r.flags.push("truncation-trap".into());
        }
        r
    }
}
