const width = 84;
const height = 22;

/** A link's clicks per day over the last 14 days as a small line; its label says the total. */
export function Sparkline({ counts }: { counts: number[] }) {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const max = Math.max(1, ...counts);
  const step = width / Math.max(1, counts.length - 1);
  // 1.5 units of room at the top and bottom, so the 2-unit stroke is never cut off.
  const points = counts.map((n, i) => `${(i * step).toFixed(1)},${(height - 1.5 - (n / max) * (height - 3)).toFixed(1)}`);
  return (
    <svg class="sparkline" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`clicks over the last ${counts.length} days: ${total}`}>
      <polyline points={points.join(" ")} />
    </svg>
  );
}
