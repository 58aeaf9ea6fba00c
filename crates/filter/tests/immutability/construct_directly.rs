use bloomproof_filter::{DocumentPrefilter, Params};

fn main() {
    let _forged = DocumentPrefilter {
        params: Params::new(16, 3, b"").unwrap(),
        bits: [u64::MAX; 8],
        documents: todo!(),
    };
}
