//! A typed value (the spec's and the adapter protocol's) as the filter's dynamic value.

use bloomproof_filter::dynamic::Value;
use bloomproof_wire::TypedValue;

/// The one conversion of a [`TypedValue`] into `bloomproof_filter::dynamic::Value`,
/// for the in-process subject and the vector writer.
pub trait ToDynamic {
    /// The filter's dynamic value of the same kind and contents.
    fn to_dynamic(&self) -> Value;
}

impl ToDynamic for TypedValue {
    fn to_dynamic(&self) -> Value {
        match self {
            TypedValue::Bytes(hex) => Value::Bytes(hex.0.clone()),
            TypedValue::Str(text) => Value::Str(text.clone()),
            TypedValue::Bytearray(hex) => Value::ByteArray(hex.0.clone()),
            TypedValue::Memoryview(hex) => Value::MemoryView(hex.0.clone()),
            TypedValue::Int(n) => Value::Int(*n),
            TypedValue::Bool(b) => Value::Bool(*b),
            TypedValue::Float(x) => Value::Float(*x),
            TypedValue::Tuple(items) => Value::Tuple(items.iter().map(Self::to_dynamic).collect()),
            TypedValue::List(items) => Value::List(items.iter().map(Self::to_dynamic).collect()),
        }
    }
}
