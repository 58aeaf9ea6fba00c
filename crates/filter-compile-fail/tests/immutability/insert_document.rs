use bloomproof_filter::DocumentPrefilter;

fn main() {
    let snapshot = DocumentPrefilter::new(&[b"doc-00"], 16, 3, b"lab").unwrap();
    snapshot.documents().insert(b"doc-99".to_vec());
}
