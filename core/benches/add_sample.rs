//! `cargo bench -p evodb-core`: add + sample at steady state, per population size.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

mod workload;

fn add_then_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("add_then_sample");
    let runs = [120usize, 1_000, 10_000].map(|n| (format!("seed/{n}"), n, workload::database_of(n)));
    let map_elites = [10_000usize].map(|n| (format!("mapElites/{n}"), n, workload::map_elites_database_of(n, true)));
    for (name, population, mut db) in runs.into_iter().chain(map_elites) {
        let mut i = population;
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                i += 1;
                db.add(workload::request(i, "0"), i as f64).unwrap();
                black_box(db.sample())
            });
        });
    }
    group.finish();
}

/// The same programs ranked by one fitness (`scalar`) or by the first front (`pareto`), in one
/// run so the figures compare.
fn objectives(c: &mut Criterion) {
    let mut group = c.benchmark_group("add_then_sample_objectives");
    for n in [120usize, 1_000, 10_000] {
        for mode in ["scalar", "pareto"] {
            let mut db = workload::objectives_database_of(n, mode);
            let mut i = n;
            group.bench_function(BenchmarkId::from_parameter(format!("{mode}/{n}")), |b| {
                b.iter(|| {
                    i += 1;
                    db.add(workload::objectives_request(i, "0"), i as f64).unwrap();
                    black_box(db.sample())
                });
            });
        }
    }
    group.finish();
}

fn save_and_load(c: &mut Criterion) {
    let db = workload::database_of(1_000);
    let text = db.to_json();
    c.bench_function("to_json/1000", |b| b.iter(|| black_box(db.to_json())));
    c.bench_function("from_json/1000", |b| b.iter(|| black_box(evodb_core::Database::from_json(&text).unwrap())));
}

criterion_group!(benches, add_then_sample, objectives, save_and_load);
criterion_main!(benches);
