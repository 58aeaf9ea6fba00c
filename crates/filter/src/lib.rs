//! The immutable doc-membership-v1 DocumentPrefilter snapshot with its full input contract.
