import { InvalidArgumentError } from '../errors';
import { normalSample, type RandomSource } from '../random';

function checkPositive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new InvalidArgumentError(`${name} must be a finite number > 0, got ${String(value)}`);
  }
}

/**
 * A Gamma(alpha, theta) draw (shape alpha, scale theta) by Marsaglia–Tsang, as the seeds do:
 * for alpha < 1 it draws Gamma(1 + alpha) and multiplies by U^(1/alpha) (with U in (0, 1], so
 * the result is never exactly 0 from a zero uniform).
 *
 * @example
 * gammaSample(2, 1, seededRandom(7)); // mean 2 over many draws
 */
export function gammaSample(alpha: number, theta: number, rng: RandomSource): number {
  checkPositive('alpha', alpha);
  checkPositive('theta', theta);
  if (alpha < 1) {
    const u = 1 - rng.random();
    return gammaSample(1 + alpha, theta, rng) * Math.pow(u, 1 / alpha);
  }
  const d = alpha - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalSample(rng);
      v = 1 + c * x;
    } while (v <= 0);
    const w = v * v * v;
    const u = rng.random();
    if (u < 1 - 0.0331 * x ** 4) return d * w * theta;
    if (Math.log(u) < 0.5 * x * x + d * (1 - w + Math.log(w))) return d * w * theta;
  }
}

/**
 * A Beta(alpha, beta) draw as x / (x + y) with x ~ Gamma(alpha), y ~ Gamma(beta).
 *
 * @example
 * betaSample(1 + wins, 1 + visits - wins, rng);
 */
export function betaSample(alpha: number, beta: number, rng: RandomSource): number {
  checkPositive('alpha', alpha);
  checkPositive('beta', beta);
  const x = gammaSample(alpha, 1, rng);
  const y = gammaSample(beta, 1, rng);
  return x / (x + y);
}
