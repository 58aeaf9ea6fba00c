//! `fnv1a-utf16-v1` vectors: positions and rejections.
//!
//! Values come from `bloomproof-protocol`; each is compared with `bloomproof-oracle`
//! (its own UTF-16 encoder, wide FNV arithmetic, the exact sum reduced digit by digit)
//! before it is kept.

use super::{Figures, FlagSet, has_repeat, param_flags};
use crate::fnv_hand_picked;
use crate::prng::SplitMix64;
use crate::schemas::{hand_picked_schema, render};
use crate::{Coverage, Protocol, finish};
use bloomproof_oracle::fnv1a_utf16 as oracle;
use bloomproof_protocol::fnv1a_utf16_v1::{self as protocol, Params};
use bloomproof_vectors::{FileKind, Version};
use bloomproof_wire::hand_picked::fnv::HandPickedFile;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{FnvPositionCase, FnvRejectionCase};
use bloomproof_wire::{ErrorKindName, RejectExpect};

/// The m values every boundary grid covers.
const MS: [u32; 24] = [
    8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 511, 512, 513,
    1000, 1023, 1024,
];
/// The longest string, in code units.
const UNITS_MAX: usize = 256;
/// Sweep sizes.
const POSITION_SWEEP: usize = 3000;
const REJECTION_SWEEP: usize = 100;
/// Fixed PRNG seeds, one per file.
const POSITION_SEED: u64 = 0x666e_762d_706f_7331; // "fnv-pos1"
const REJECTION_SEED: u64 = 0x666e_762d_7265_6a31; // "fnv-rej1"

/// How the loader reads this protocol's files: its own format and bounds.
const VERSION: Version<'static> = Version {
    name: protocol::NAME,
    format: protocol::NAME,
    doc_bounds: None,
};

/// `fnv1a-utf16-v1`'s entry in the writer's registry.
pub(crate) const PROTOCOL: Protocol = Protocol {
    name: protocol::NAME,
    files: || {
        Ok(vec![
            finish(VERSION, FileKind::FnvPositions, positions()?, |_| {
                Vec::new()
            })?,
            finish(VERSION, FileKind::FnvRejections, rejections()?, |_| {
                Vec::new()
            })?,
        ])
    },
    schemas: || {
        vec![
            (
                FileKind::FnvPositions,
                render::<FnvPositionCase>(FileKind::FnvPositions),
            ),
            (
                FileKind::FnvRejections,
                render::<FnvRejectionCase>(FileKind::FnvRejections),
            ),
        ]
    },
    coverage: &[
        Coverage {
            kind: FileKind::FnvPositions,
            flags: &[
                "surrogate-pair",
                "lone-surrogate",
                "wrap-would-differ",
                "repeated-position",
                "zero-unit",
                "max-unit",
                "min-length",
                "max-length",
                "min-m",
                "max-m",
                "min-k",
                "max-k",
                "sweep",
            ],
            min_cases: 3000,
        },
        Coverage {
            kind: FileKind::FnvRejections,
            flags: &["value-error", "truncation-trap"],
            min_cases: 1,
        },
    ],
    hand_picked_schema: || hand_picked_schema::<HandPickedFile>(protocol::NAME, "inputs"),
};

fn io(id: &str, what: impl std::fmt::Display) -> String {
    format!("vectors/{}: case `{id}`: {what}", protocol::NAME)
}

fn is_high(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

fn is_low(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// Whether the units hold a valid pair, and whether they hold an unpaired surrogate,
/// by a scan written here (independent of the standard library's decoder).
fn surrogates(units: &[u16]) -> (bool, bool) {
    let (mut pair, mut lone) = (false, false);
    let mut at = 0;
    while at < units.len() {
        let unit = units[at];
        if is_high(unit) && units.get(at + 1).is_some_and(|&next| is_low(next)) {
            pair = true;
            at += 2;
            continue;
        }
        if is_high(unit) || is_low(unit) {
            lone = true;
        }
        at += 1;
    }
    (pair, lone)
}

/// Whether wrapping `h1 + i*h2` to 32 bits would change some position.
fn wrap_would_differ(h1: u32, h2: u32, k: u32, m: u32) -> bool {
    (0..u64::from(k)).any(|i| {
        let exact = u64::from(h1) + i * u64::from(h2);
        exact >= 1 << 32 && (exact % (1 << 32)) % u64::from(m) != exact % u64::from(m)
    })
}

/// One position case: production hashes and positions, each compared with the oracle.
fn position_case(
    id: String,
    mut flags: FlagSet,
    m: u32,
    k: u32,
    units: Vec<u16>,
) -> Result<FnvPositionCase, String> {
    if units.is_empty() || units.len() > UNITS_MAX {
        return Err(io(
            &id,
            format!("{} code units: 1..=256 are allowed", units.len()),
        ));
    }
    let params = Params::new(m.into(), k.into()).map_err(|e| io(&id, e))?;
    let hashes = protocol::base_hashes(&units);
    let positions = protocol::positions(&params, hashes);
    let text = String::from_utf16(&units).ok();
    let (pair, lone) = surrogates(&units);
    if lone == text.is_some() {
        return Err(io(
            &id,
            "the surrogate scan and the UTF-16 decoder disagree",
        ));
    }
    let encodes =
        |text: &String| protocol::units(text) == units && oracle::utf16_units(text) == units;
    if text.as_ref().is_some_and(|text| !encodes(text)) {
        return Err(io(
            &id,
            "production or oracle encodes the text to other units",
        ));
    }
    let (h1, h2) = (oracle::h1(&units), oracle::h2(&units));
    if (hashes.h1, hashes.h2) != (h1, h2) {
        return Err(io(
            &id,
            format!(
                "base hashes differ: production ({}, {}), oracle ({h1}, {h2})",
                hashes.h1, hashes.h2
            ),
        ));
    }
    let oracle_positions = oracle::positions(m, k, &units);
    let widened: Vec<u32> = positions.iter().map(|&p| u32::from(p)).collect();
    if widened != oracle_positions {
        return Err(io(
            &id,
            format!("positions differ: production {positions:?}, oracle {oracle_positions:?}"),
        ));
    }
    param_flags(
        &mut flags,
        (m, protocol::M_MIN, protocol::M_MAX),
        (k, protocol::K_MIN, protocol::K_MAX),
    );
    flags.set("surrogate-pair", pair);
    flags.set("lone-surrogate", lone);
    flags.set("zero-unit", units.contains(&0x0000));
    flags.set("max-unit", units.contains(&0xFFFF));
    flags.set("min-length", units.len() == 1);
    flags.set("max-length", units.len() == UNITS_MAX);
    flags.set("repeated-position", has_repeat(&positions));
    flags.set("wrap-would-differ", wrap_would_differ(h1, h2, k, m));
    Ok(FnvPositionCase {
        id,
        flags: flags.into_vec(),
        m,
        k,
        units,
        text,
        h1,
        h2,
        positions,
    })
}

fn utf16(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

/// Code units for the sweep: a length biased towards short strings, and units from a
/// palette (ASCII, BMP, surrogates, pairs, extremes or anything).
fn sweep_units(rng: &mut SplitMix64) -> Vec<u16> {
    let len = match rng.below(20) {
        0..=1 => 1,
        2 => UNITS_MAX,
        3..=9 => rng.range_usize(1, 8),
        10..=15 => rng.range_usize(9, 32),
        16..=18 => rng.range_usize(33, 128),
        _ => rng.range_usize(129, UNITS_MAX),
    };
    let palette = rng.below(7);
    let mut units = Vec::with_capacity(len);
    while units.len() < len {
        let choice = if palette == 6 { rng.below(6) } else { palette };
        match choice {
            0 => units.push(rng.range(0x20, 0x7e) as u16),
            1 => {
                let unit = rng.range(0x80, 0xFFFF) as u16;
                units.push(if is_high(unit) || is_low(unit) {
                    unit ^ 0x4000
                } else {
                    unit
                });
            }
            2 => units.push(rng.range(0xD800, 0xDFFF) as u16),
            3 if units.len() + 1 < len => {
                units.push(rng.range(0xD800, 0xDBFF) as u16);
                units.push(rng.range(0xDC00, 0xDFFF) as u16);
            }
            4 => units.push(
                *rng.pick(&[0x0000, 0xFFFF, 0xD800, 0xDFFF, 0x0001, 0xFFFE])
                    .unwrap_or(&0),
            ),
            _ => units.push(rng.next_u64() as u16),
        }
    }
    units
}

fn sweep_m(rng: &mut SplitMix64) -> u32 {
    if rng.chance(25) {
        rng.pick(&MS).copied().unwrap_or(protocol::M_MIN)
    } else {
        rng.range(protocol::M_MIN.into(), protocol::M_MAX.into()) as u32
    }
}

/// Every position case: the published example, boundary grids, then the sweep.
pub(super) fn positions() -> Result<Vec<FnvPositionCase>, String> {
    let hand_picked = fnv_hand_picked::read()?;
    let mut cases = Vec::new();
    for given in hand_picked.positions {
        let flags = FlagSet::given(&given.flags).map_err(|err| io(&given.id, err))?;
        let units = fnv_hand_picked::units(&given.units);
        let case = position_case(given.id, flags, given.m, given.k, units)?;
        reproduces(&case, &given.expect)?;
        cases.push(case);
    }
    let boundary = ["boundary"];
    let long: Vec<u16> = (0..UNITS_MAX as u16)
        .map(|i| 0x20 + (i * 7) % 0x5f)
        .collect();
    for m in MS {
        for k in [protocol::K_MIN, protocol::K_MAX] {
            cases.push(position_case(
                format!("boundary/m{m}-k{k}-units1"),
                FlagSet::new(&boundary),
                m,
                k,
                utf16("a"),
            )?);
            cases.push(position_case(
                format!("boundary/m{m}-k{k}-units256"),
                FlagSet::new(&boundary),
                m,
                k,
                long.clone(),
            )?);
        }
    }
    for k in 2..protocol::K_MAX {
        for m in [8, 1000, 1024] {
            cases.push(position_case(
                format!("boundary/m{m}-k{k}-doc-04"),
                FlagSet::new(&boundary),
                m,
                k,
                utf16("doc-04"),
            )?);
        }
    }
    for bloomproof_wire::hand_picked::fnv::Named { name, units } in hand_picked.strings {
        let units = fnv_hand_picked::units(&units);
        for (m, k) in [(1000, 12), (1024, 12), (8, 1), (257, 7)] {
            cases.push(position_case(
                format!("boundary/{name}-m{m}-k{k}"),
                FlagSet::new(&boundary),
                m,
                k,
                units.clone(),
            )?);
        }
    }
    let mut rng = SplitMix64::new(POSITION_SEED);
    for n in 0..POSITION_SWEEP {
        let m = sweep_m(&mut rng);
        let k = rng.range(protocol::K_MIN.into(), protocol::K_MAX.into()) as u32;
        let units = sweep_units(&mut rng);
        cases.push(position_case(
            format!("sweep/{n:04}"),
            FlagSet::new(&["sweep"]),
            m,
            k,
            units,
        )?);
    }
    Ok(cases)
}

/// Checks the figures a hand-picked position case states (`expect` in the data file).
fn reproduces(
    case: &FnvPositionCase,
    expect: &bloomproof_wire::hand_picked::fnv::PositionExpect,
) -> Result<(), String> {
    let published = fnv_hand_picked::published()?;
    let mut figures = Figures::default();
    if let Some(positions) = &expect.positions {
        // Each position a figure of its own (`m8_k1.position(a)`).
        match positions
            .iter()
            .map(|figure| published.value(figure))
            .collect::<Result<Vec<u16>, String>>()
        {
            Ok(positions) => figures.compare("positions", Some(&positions), &case.positions),
            Err(err) => figures.note(format!("positions: {err}")),
        }
    }
    figures.compare_figure("h1", &published, expect.h1.as_ref(), &case.h1);
    figures.compare_figure("h2", &published, expect.h2.as_ref(), &case.h2);
    figures
        .verdict(fnv_hand_picked::PATH)
        .map_err(|err| io(&case.id, err))
}

/// Whether an out-of-range value lands in `low..=high` when truncated to 8, 16 or 32
/// bits.
fn truncation_trap(n: u64, low: u32, high: u32) -> bool {
    let range = u64::from(low)..=u64::from(high);
    !range.contains(&n)
        && [8u32, 16, 32]
            .iter()
            .any(|&bits| range.contains(&(n % (1 << bits))))
}

/// One rejection: production must reject exactly the field the bounds say.
fn rejection_case(
    id: String,
    extra: &[&'static str],
    m: u64,
    k: u64,
    units: Vec<u16>,
) -> Result<FnvRejectionCase, String> {
    let m_ok = (u64::from(protocol::M_MIN)..=u64::from(protocol::M_MAX)).contains(&m);
    let k_ok = (u64::from(protocol::K_MIN)..=u64::from(protocol::K_MAX)).contains(&k);
    let field = match (m_ok, k_ok) {
        (false, true) => "m",
        (true, false) => "k",
        _ => {
            return Err(io(&id, "exactly one of m and k must be out of range"));
        }
    };
    if m > (1 << 53) - 1 || k > (1 << 53) - 1 {
        return Err(io(&id, "a value is beyond 2^53 - 1 (a writer bug)"));
    }
    match Params::new(m, k) {
        Ok(_) => return Err(io(&id, "production accepted the parameters")),
        Err(err) if err.field.name() != field => {
            return Err(io(
                &id,
                format!("production names {}, the bounds name {field}", err.field),
            ));
        }
        Err(_) => {}
    }
    let mut flags = FlagSet::new(extra);
    flags.set("value-error", true);
    let (given, low, high) = if field == "m" {
        (m, protocol::M_MIN, protocol::M_MAX)
    } else {
        (k, protocol::K_MIN, protocol::K_MAX)
    };
    flags.set("truncation-trap", truncation_trap(given, low, high));
    flags.set(
        "boundary",
        given + 1 == u64::from(low) || given == u64::from(high) + 1,
    );
    Ok(FnvRejectionCase {
        id,
        flags: flags.into_vec(),
        m,
        k,
        units,
        expect: RejectExpect {
            error: ErrorKindName::Value,
            field: field.to_string(),
        },
    })
}

pub(super) fn rejections() -> Result<Vec<FnvRejectionCase>, String> {
    let mut cases = Vec::new();
    for given in fnv_hand_picked::read()?.rejections {
        let units = fnv_hand_picked::units(&given.units);
        cases.push(rejection_case(given.id, &[], given.m, given.k, units)?);
    }
    let mut rng = SplitMix64::new(REJECTION_SEED);
    for n in 0..REJECTION_SWEEP {
        let mut m = sweep_m(&mut rng).into();
        let mut k = rng.range(protocol::K_MIN.into(), protocol::K_MAX.into());
        let vary_m = rng.chance(50);
        let (low, high) = if vary_m {
            (protocol::M_MIN, protocol::M_MAX)
        } else {
            (protocol::K_MIN, protocol::K_MAX)
        };
        let bad = loop {
            let candidate = match rng.below(4) {
                0 => rng.range(0, u64::from(low) - 1),
                1 => rng.range(u64::from(high) + 1, u64::from(high) * 8),
                2 => rng.range(0, 1 << 40),
                _ => {
                    rng.range(u64::from(low), u64::from(high))
                        + rng.range(1, 255) * (1 << [8, 16, 32][rng.below(3) as usize])
                }
            };
            if !(u64::from(low)..=u64::from(high)).contains(&candidate) {
                break candidate;
            }
        };
        if vary_m {
            m = bad;
        } else {
            k = bad;
        }
        let units = sweep_units(&mut rng);
        cases.push(rejection_case(
            format!("sweep/{n:04}"),
            &["sweep"],
            m,
            k,
            units,
        )?);
    }
    Ok(cases)
}
