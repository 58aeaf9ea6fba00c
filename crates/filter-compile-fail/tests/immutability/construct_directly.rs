use bloomproof_filter::{DocumentPrefilter, Params};

fn main() {
    let _forged = DocumentPrefilter {
        params: Params::new(16, 3, b"").unwrap(),
        bits: vec![u8::MAX; 2].into_boxed_slice(),
        documents: todo!(),
    };
}
