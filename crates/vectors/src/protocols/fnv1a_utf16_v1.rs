//! `fnv1a-utf16-v1`'s files: what the loader checks in each case beyond its types (the
//! protocol's bounds, 1 to 256 code units, `text` exactly when the units are valid
//! UTF-16, an odd h2, k positions below m, a rejection of m or k as a value error).

use crate::load::{Checked, check_reject_expect};
use crate::protocols::Bounds;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;
use bloomproof_wire::ErrorKindName;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{FnvPositionCase, FnvRejectionCase};

impl Checked for FnvPositionCase {
    fn problems(&self, _: &Bounds) -> Vec<String> {
        check_fnv_position(self)
    }
}

impl Checked for FnvRejectionCase {
    fn problems(&self, _: &Bounds) -> Vec<String> {
        check_fnv_rejection(self)
    }
}

fn check_units(out: &mut Vec<String>, units: &[u16]) {
    if units.is_empty() || units.len() > 256 {
        out.push(format!(
            "`units` has {} code units: 1..=256 are allowed",
            units.len()
        ));
    }
}

fn check_fnv_position(case: &FnvPositionCase) -> Vec<String> {
    let mut out = Vec::new();
    if !(fnv::M_MIN..=fnv::M_MAX).contains(&case.m) {
        out.push(format!(
            "m = {} is outside {}..={}",
            case.m,
            fnv::M_MIN,
            fnv::M_MAX
        ));
    }
    if !(fnv::K_MIN..=fnv::K_MAX).contains(&case.k) {
        out.push(format!(
            "k = {} is outside {}..={}",
            case.k,
            fnv::K_MIN,
            fnv::K_MAX
        ));
    }
    check_units(&mut out, &case.units);
    match (&case.text, String::from_utf16(&case.units)) {
        (Some(text), _) => {
            if !text.encode_utf16().eq(case.units.iter().copied()) {
                out.push("`text` does not encode to `units` in UTF-16".into());
            }
        }
        (None, Ok(_)) => out.push("`units` is valid UTF-16, so `text` must be given".into()),
        (None, Err(_)) => {}
    }
    if case.h2 & 1 == 0 {
        out.push(format!("h2 = {} is even; it is forced odd", case.h2));
    }
    if case.positions.len() != case.k as usize {
        out.push(format!(
            "`positions` has {} entries but k = {}",
            case.positions.len(),
            case.k
        ));
    }
    for (index, &position) in case.positions.iter().enumerate() {
        if u32::from(position) >= case.m {
            out.push(format!(
                "positions[{index}] = {position} is not below m = {}",
                case.m
            ));
        }
    }
    out
}

fn check_fnv_rejection(case: &FnvRejectionCase) -> Vec<String> {
    let mut out = Vec::new();
    check_reject_expect(&mut out, &case.expect.field);
    check_units(&mut out, &case.units);
    if case.expect.error != ErrorKindName::Value {
        out.push(format!("{} rejections are value errors", fnv::NAME));
    }
    let m_ok = (u64::from(fnv::M_MIN)..=u64::from(fnv::M_MAX)).contains(&case.m);
    let k_ok = (u64::from(fnv::K_MIN)..=u64::from(fnv::K_MAX)).contains(&case.k);
    if m_ok && k_ok {
        out.push("m and k are both in range: nothing to reject".into());
    }
    if !matches!(case.expect.field.as_str(), "m" | "k") {
        out.push(format!(
            "expect.field is {:?}; it is `m` or `k`",
            case.expect.field
        ));
    }
    out
}
