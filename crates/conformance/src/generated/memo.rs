//! Expected values kept for the next subject: the oracle's (or the reference model's)
//! answer to one generated input depends on that input alone, so a run that drives
//! several implementations through the same inputs (`bloomproof matrix` runs the suite
//! once per implementation, on one spec and so one seed) computes each once.
//!
//! Off unless a [`Scope`] is alive: a single run meets each input once, and would only
//! pay for the keys. While on, at most [`ENTRIES_MAX`] values are kept (all are dropped
//! when it is reached, and when the last scope ends), so memory stays bounded however
//! many runs share the process.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The most values kept at once.
pub const ENTRIES_MAX: usize = 8192;

/// A value kept, by what it is (`kind`) and its input's key.
type Entries = HashMap<(&'static str, String), Arc<dyn Any + Send + Sync>>;

static SCOPES: AtomicUsize = AtomicUsize::new(0);
static ENTRIES: Mutex<Option<Entries>> = Mutex::new(None);
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

/// While alive, expected values are kept and reused ([`scope`]).
#[must_use = "the values are kept only while the scope is alive"]
pub struct Scope(());

/// Keeps expected values until the returned scope (and every other one) is dropped.
pub fn scope() -> Scope {
    SCOPES.fetch_add(1, Ordering::SeqCst);
    Scope(())
}

impl Drop for Scope {
    fn drop(&mut self) {
        if SCOPES.fetch_sub(1, Ordering::SeqCst) == 1 {
            clear();
        }
    }
}

fn entries() -> MutexGuard<'static, Option<Entries>> {
    ENTRIES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Drops every value kept.
pub fn clear() {
    *entries() = None;
}

/// (values reused, values computed while a scope was alive) since the process started.
pub fn counts() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// The value of `kind` for the input whose key `key` gives: the one kept, or
/// `compute`'s (kept while a scope is alive). `compute` must depend on the input alone,
/// and `key` must tell every two inputs apart whose values may differ.
pub(crate) fn get_or<T: Send + Sync + 'static>(
    kind: &'static str,
    key: impl FnOnce() -> String,
    compute: impl FnOnce() -> T,
) -> Arc<T> {
    if SCOPES.load(Ordering::SeqCst) == 0 {
        return Arc::new(compute());
    }
    let key = (kind, key());
    let kept = entries()
        .as_ref()
        .and_then(|map| map.get(&key).cloned())
        .and_then(|value| value.downcast::<T>().ok());
    if let Some(value) = kept {
        HITS.fetch_add(1, Ordering::Relaxed);
        return value;
    }
    // Computed without the lock: two threads may compute one value, never wait long.
    let value = Arc::new(compute());
    MISSES.fetch_add(1, Ordering::Relaxed);
    let mut guard = entries();
    let map = guard.get_or_insert_with(HashMap::new);
    if map.len() >= ENTRIES_MAX {
        map.clear();
    }
    map.insert(key, Arc::clone(&value) as Arc<dyn Any + Send + Sync>);
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One test, so that no other test turns a scope on meanwhile.
    #[test]
    fn values_are_kept_only_in_a_scope_and_reused_equal() {
        let computed = std::sync::atomic::AtomicUsize::new(0);
        let square = |n: u64| {
            computed.fetch_add(1, Ordering::SeqCst);
            n * n
        };
        // Off: computed every time.
        for _ in 0..2 {
            assert_eq!(*get_or("memo-test", || "3".into(), || square(3)), 9);
        }
        assert_eq!(computed.load(Ordering::SeqCst), 2);
        let (hits, misses) = counts();
        assert_eq!(counts(), (hits, misses), "no scope: nothing counted");
        {
            let _scope = scope();
            for n in [3u64, 4, 3, 4, 3] {
                assert_eq!(*get_or("memo-test", || n.to_string(), || square(n)), n * n);
            }
            assert_eq!(computed.load(Ordering::SeqCst), 4, "3 and 4 once each");
            // Another kind under the same key is another value.
            assert_eq!(*get_or("memo-test-other", || "3".into(), || 30u64), 30);
            // A kept value of another type is not taken for this one.
            assert_eq!(*get_or("memo-test", || "3".into(), || "nine"), "nine");
            // Reused: 3, 4, 3; computed: 3, 4, the other kind, the other type.
            assert_eq!(counts(), (hits + 3, misses + 4));
        }
        // The scope ended: nothing kept.
        assert!(entries().is_none());
        assert_eq!(*get_or("memo-test", || "3".into(), || square(3)), 9);
        assert_eq!(computed.load(Ordering::SeqCst), 5);
        // At the cap, what was kept is dropped, not grown past it.
        let _scope = scope();
        for n in 0..(ENTRIES_MAX + 10) {
            let _ = get_or("memo-cap-test", || n.to_string(), || n);
        }
        let kept = entries().as_ref().map_or(0, HashMap::len);
        assert!(kept <= ENTRIES_MAX, "{kept}");
    }
}
