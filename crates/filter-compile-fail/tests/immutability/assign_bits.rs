use bloomproof_filter::DocumentPrefilter;

fn main() {
    let mut snapshot = DocumentPrefilter::new(&[b"doc-00"], 16, 3, b"lab").unwrap();
    snapshot.bits = [0; 8];
}
