use bloomproof_filter::DocumentPrefilter;

fn main() {
    let mut snapshot = DocumentPrefilter::new(&[b"doc-00"], 16, 3, b"lab").unwrap();
    snapshot.params = bloomproof_filter::Params::new(32, 3, b"").unwrap();
}
