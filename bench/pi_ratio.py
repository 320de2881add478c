"""The ratio of the Raspberry Pi 4 estimates (docs/performance.md).

The Computer Language Benchmarks Game's n-body program in plain Python (its
program #1), whose run of 5,000,000 steps on a Raspberry Pi 4 Model B (4 GB,
1.5 GHz, performance governor) took 158.3 s
(https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages).
This runs the same program for ``N`` steps here and prints its CPU time and the
ratio, scaled to 5,000,000 steps.

    python bench/pi_ratio.py [500000]
"""

from __future__ import annotations

import sys
import time

#: 5,000,000 steps on the Pi 4 (s), the source above
PI4_SECONDS = 158.263
PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24
Body = tuple[list[float], list[float], float]
BODIES: list[Body] = [
    ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS),
    ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
     [1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
      -6.90460016972063023e-05 * DAYS_PER_YEAR], 9.54791938424326609e-04 * SOLAR_MASS),
    ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
     [-2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
      2.30417297573763929e-05 * DAYS_PER_YEAR], 2.85885980666130812e-04 * SOLAR_MASS),
    ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
     [2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
      -2.96589568540237556e-05 * DAYS_PER_YEAR], 4.36624404335156298e-05 * SOLAR_MASS),
    ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
     [2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
      -9.51592254519715870e-05 * DAYS_PER_YEAR], 5.15138902046611451e-05 * SOLAR_MASS),
]
PAIRS = [(BODIES[i], b) for i in range(len(BODIES) - 1) for b in BODIES[i + 1:]]


def advance(dt: float, n: int) -> None:
    for _ in range(n):
        for (([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2)) in PAIRS:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for (r, [vx, vy, vz], _m) in BODIES:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500_000
    c0 = time.process_time()
    advance(0.01, n)
    spent = time.process_time() - c0
    here = spent * 5_000_000 / n
    print(f"{n} steps: {spent:.2f} s CPU here; 5,000,000 steps: {here:.1f} s here, "
          f"{PI4_SECONDS:.1f} s on a Raspberry Pi 4: ratio {PI4_SECONDS / here:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
