//! The adapter phase: `bloomproof adapter` under load, its request kinds and answers.

use super::*;

/// Checks the `result` of an adapter's answer.
pub(super) type AnswerCheck = fn(&Value) -> Result<(), String>;

/// One kind of adapter request.
pub(super) struct AdapterKind {
    pub(super) name: &'static str,
    pub(super) weight: usize,
    /// The request, a JSON object without its `id`.
    pub(super) request: String,
    /// Checks the `result` of the answer.
    pub(super) check: AnswerCheck,
}

pub(super) const DOC: &str = bloomproof_conformance::protocols::doc_membership_v1::NAME;
pub(super) const FNV: &str = bloomproof_conformance::protocols::fnv1a_utf16_v1::NAME;

/// Record `i` of `len` bytes (distinct for distinct `i` < 256).
pub(super) fn record(i: usize, len: usize) -> Vec<u8> {
    (0..len)
        .map(|j| {
            if j == 0 {
                (i % 256) as u8
            } else {
                ((i * 131 + j * 29 + 7) % 256) as u8
            }
        })
        .collect()
}

pub(super) fn counted(key: &str, n: usize, want: usize) -> Result<(), String> {
    if n == want {
        Ok(())
    } else {
        Err(format!("{key} has {n} items, expected {want}"))
    }
}

/// The steps of the adapter's `session` script: m = 1024, k = 12, then insertions and
/// queries, with a roundtrip (export and import) and a reset in every 16 steps.
///
/// Each step's answer holds the whole view (the 1024 bits, the history); the resets keep
/// the history short so that the answer (about 770 KB) stays under the 1 MiB a
/// `bloomproof adapter` answer may take.
pub(super) fn session_script() -> Vec<ScriptOp> {
    let draft = |field, value: &str| ScriptOp::SetDraft {
        field,
        value: value.to_string(),
    };
    let mut script = vec![
        draft(DraftField::M, "1024"),
        draft(DraftField::K, "12"),
        ScriptOp::Create {},
    ];
    for i in 0..SESSION_STEPS - script.len() {
        script.push(if i % 16 == 15 {
            ScriptOp::Reset {}
        } else if i % 16 == 7 {
            ScriptOp::Roundtrip {}
        } else if i % 2 == 0 {
            ScriptOp::Insert {
                value: TextValue::Text(format!("entry {i} é😀")),
            }
        } else {
            ScriptOp::Query {
                value: TextValue::Text(format!("probe {i}")),
            }
        });
    }
    script
}

/// A request line's object without its `id`: the op (a `format::adapter` request, so
/// that it is spelled as the adapter protocol defines it) and its protocol.
pub(super) fn request(protocol: &str, op: &impl Serialize) -> Value {
    let mut value = serde_json::to_value(op).unwrap_or(Value::Null);
    if let Value::Object(object) = &mut value {
        object.insert("protocol".to_string(), Value::from(protocol));
    }
    value
}

/// A `doc-membership-v1` request.
pub(super) fn doc(op: DocOp) -> Value {
    request(DOC, &op)
}

/// A `fnv1a-utf16-v1` request.
pub(super) fn fnv(op: FnvOp) -> Value {
    request(FNV, &op)
}

/// An answer's `result` read as the adapter protocol's result type `T`.
pub(super) fn result<T: DeserializeOwned>(result: &Value, what: &str) -> Result<T, String> {
    T::deserialize(result).map_err(|err| {
        format!(
            "not a {what} result ({err}): {}",
            shorten(&result.to_string())
        )
    })
}

/// The adapter's request mix.
pub(super) fn adapter_kinds() -> Vec<AdapterKind> {
    let params = DocParams {
        m: 512,
        k: 8,
        seed_hex: Hex(record(200, 16)),
    };
    let snapshot: Vec<Hex> = (0..64).map(|i| Hex(record(i, 64))).collect();
    let small: Vec<Hex> = (0..16).map(|i| Hex(record(i, 32))).collect();
    let probes: Vec<Hex> = small
        .iter()
        .cloned()
        .chain((100..116).map(|i| Hex(record(i, 32))))
        .collect();
    let units: Vec<u16> = (0..254)
        .map(|i| 0x61 + i % 26)
        .chain([0xd83d, 0xde00])
        .collect();
    let kinds: [(&str, usize, Value, AnswerCheck); 6] = [
        (
            "positions (doc)",
            12,
            doc(DocOp::Positions {
                params: params.clone(),
                item: snapshot[1].clone(),
            }),
            |r: &Value| {
                let answer: PositionsResult = result(r, "positions")?;
                counted("positions", answer.positions.len(), 8)
            },
        ),
        (
            "positions (fnv, 256 units)",
            12,
            fnv(FnvOp::Positions {
                m: 1024,
                k: 12,
                units,
            }),
            |r: &Value| {
                let answer: FnvHashes = result(r, "positions")?;
                counted("positions", answer.positions.len(), 12)
            },
        ),
        (
            "lookup_many (16 of 32 bytes, 32 items)",
            12,
            doc(DocOp::LookupMany {
                params: params.clone(),
                records: small,
                items: probes,
            }),
            |r: &Value| {
                let answer: TriplesResult = result(r, "lookup_many")?;
                counted("results", answer.results.len(), 32)?;
                if answer.results.iter().take(16).all(|t| t.duplicate) {
                    Ok(())
                } else {
                    Err("a member was not found as a duplicate".to_string())
                }
            },
        ),
        (
            "build (64 records of 64 bytes)",
            6,
            doc(DocOp::Build {
                params,
                records: snapshot,
            }),
            |r: &Value| {
                let answer: Built = result(r, "build")?;
                if answer.documents == 64 && answer.packed_bits.len() == 64 {
                    Ok(())
                } else {
                    Err(format!(
                        "unexpected build result {}",
                        shorten(&r.to_string())
                    ))
                }
            },
        ),
        (
            "estimates (m 1024, k 12, n 1024)",
            4,
            fnv(FnvOp::Estimates {
                m: 1024,
                k: 12,
                n: 1024,
            }),
            |r: &Value| {
                let answer: EstimatesAnswer = result(r, "estimates")?;
                if (0.0..=1.0).contains(&answer.exact) {
                    Ok(())
                } else {
                    Err(format!("unexpected estimates {}", shorten(&r.to_string())))
                }
            },
        ),
        (
            "session (250 steps, m 1024, k 12)",
            2,
            fnv(FnvOp::Session {
                script: session_script(),
            }),
            |r: &Value| {
                let answer: ScriptAnswer = result(r, "session")?;
                counted("steps", answer.steps.len(), SESSION_STEPS)?;
                match answer.steps.iter().position(|step| step.error.is_some()) {
                    None => Ok(()),
                    Some(i) => Err(format!(
                        "step {i} was rejected: {}",
                        shorten(&r["steps"][i]["error"].to_string())
                    )),
                }
            },
        ),
    ];
    kinds
        .into_iter()
        .map(|(name, weight, request, check)| AdapterKind {
            name,
            weight,
            request: request.to_string(),
            check,
        })
        .collect()
}

/// One adapter process, spoken to by one client.
pub(super) struct AdapterConn {
    pub(super) pid: u32,
    pub(super) stdin: ChildStdin,
    pub(super) stdout: BufReader<ChildStdout>,
}

impl AdapterConn {
    /// Writes one request line and reads one answer line.
    pub(super) fn exchange(&mut self, line: &str) -> Result<String, String> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|err| format!("writing the request: {err} (has the adapter exited?)"))?;
        let mut answer = String::new();
        let read = (&mut self.stdout)
            .take(MAX_LINE)
            .read_line(&mut answer)
            .map_err(|err| format!("reading the answer: {err}"))?;
        if read == 0 {
            return Err("the adapter closed its output (exited?)".to_string());
        }
        if !answer.ends_with('\n') {
            return Err(format!(
                "an answer line over {MAX_LINE} bytes, or cut short"
            ));
        }
        Ok(answer)
    }
}

/// Checks one answer line: its id, a `result` and the kind's check.
pub(super) fn check_answer(answer: &str, id: u64, kind: &AdapterKind) -> Result<(), String> {
    let value: Value = serde_json::from_str(answer)
        .map_err(|err| format!("not JSON ({err}): {}", shorten(answer)))?;
    if value["id"] != id {
        return Err(format!("answer to id {} where {id} was sent", value["id"]));
    }
    if !value["error"].is_null() {
        return Err(format!(
            "an error answer: {}",
            shorten(&value["error"].to_string())
        ));
    }
    (kind.check)(&value["result"])
}

pub(super) fn adapter_phase(binary: &Path, plan: &Plan) -> Result<PhaseReport, String> {
    let kinds = adapter_kinds();
    let order = mix(&kinds.iter().map(|k| k.weight).collect::<Vec<_>>());
    let fleet = Fleet::default();
    let mut conns = Vec::new();
    for _ in 0..plan.adapter_clients {
        let mut command = Command::new(binary);
        command.arg("adapter").stderr(Stdio::inherit());
        let (pid, stdin, stdout) = fleet.spawn(&mut command)?;
        conns.push(AdapterConn {
            pid,
            stdin,
            stdout: BufReader::new(stdout),
        });
    }
    let started = Instant::now();
    let setup = plan.adapter();
    let soft = started + setup.limit;
    let (count, clients) = (setup.requests, setup.clients);
    let (logs, killed) = with_watchdog(&fleet, soft + GRACE, || {
        run_clients(&mut conns, count, |index, conn| {
            let offset = index * order.len() / clients;
            let mut id = 0_u64;
            client_loop(&order, offset, count, soft, |k| {
                id += 1;
                let kind = &kinds[k];
                let body = kind.request.strip_prefix('{').unwrap_or_default();
                let line = format!("{{\"id\":{id},{body}\n");
                let start = Instant::now();
                let answer = conn.exchange(&line);
                let latency = start.elapsed();
                let fatal = answer.is_err();
                let error = answer.and_then(|a| check_answer(&a, id, kind)).err();
                (
                    Sample {
                        kind: k,
                        latency,
                        error,
                    },
                    fatal,
                )
            })
        })
    });
    let wall = started.elapsed();
    let memory = conns.iter().map(|conn| peak_rss_kib(conn.pid)).collect();
    drop(conns);
    drop(fleet);
    let kinds = kinds.iter().map(|k| k.name).collect();
    Ok(setup.report(kinds, logs, memory, wall, killed))
}
