//! The spec model, loader, evaluators and runner of the documented checks.
