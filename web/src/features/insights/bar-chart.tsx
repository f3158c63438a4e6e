import type { ChartConfiguration } from 'chart.js';
import { useEffect, useRef, useState } from 'react';

interface BarChartProps {
  config: ChartConfiguration<'bar'>;
  /** What the chart shows, in words: the canvas's accessible name (the figures are in a table beside it). */
  label: string;
  /** CSS height of the drawing; its width is the container's. */
  height: number;
}

/**
 * A Chart.js bar chart, drawn once the library has loaded (its own chunk, fetched on this screen only).
 * A new config redraws it; leaving the screen frees the chart.
 */
export function BarChart({ config, label, height }: BarChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let cancelled = false;
    import('./chartjs')
      .then(({ Chart }) => {
        if (cancelled || !canvas.current) return;
        chart = new Chart(canvas.current, config);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [config]);
  return (
    <div className="insights-chart" style={{ height }}>
      {failed ? (
        <p className="text-muted small">The chart could not be drawn; its figures are in the table below.</p>
      ) : (
        <canvas ref={canvas} role="img" aria-label={label} />
      )}
    </div>
  );
}
