//! The fnv1a-utf16-v1 interactive teaching filter as a session model: rules, counters, estimates, export/import.
