//! `cargo bench -p evodb-core`: add + sample at steady state, per population size.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

mod workload;

fn add_then_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("add_then_sample");
    for population in [120usize, 1_000, 10_000] {
        let mut db = workload::database_of(population);
        let mut i = population;
        group.bench_function(BenchmarkId::from_parameter(population), |b| {
            b.iter(|| {
                i += 1;
                db.add(workload::request(i, "0"), i as f64).unwrap();
                black_box(db.sample())
            })
        });
    }
    group.finish();
}

fn save_and_load(c: &mut Criterion) {
    let db = workload::database_of(1_000);
    let text = db.to_json();
    c.bench_function("to_json/1000", |b| b.iter(|| black_box(db.to_json())));
    c.bench_function("from_json/1000", |b| b.iter(|| black_box(evodb_core::Database::from_json(&text).unwrap())));
}

criterion_group!(benches, add_then_sample, save_and_load);
criterion_main!(benches);
