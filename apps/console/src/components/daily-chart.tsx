import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { DayStats, successRate } from '../lib/daily-stats';
import { formatAmount } from '../lib/money';
import { DataTable } from './data-table';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

/**
 * Transactions per day (bars) and the success rate (line), drawn by Chart.js on a canvas; the same figures follow as a
 * table, which is what a screen reader reads (the canvas is hidden from it).
 */
export function DailyChart({ stats }: { stats: DayStats[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      data: {
        labels: stats.map((s) => s.day.slice(5)),
        datasets: [
          { type: 'bar', label: 'Transactions', data: stats.map((s) => s.count), backgroundColor: '#5b8def', yAxisID: 'count' },
          { type: 'line', label: 'Success rate %', data: stats.map((s) => successRate(s) ?? null), borderColor: '#1e7b34', yAxisID: 'rate', spanGaps: true },
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: { count: { position: 'left', beginAtZero: true, ticks: { precision: 0 } }, rate: { position: 'right', min: 0, max: 100 } },
      },
    });
    return () => chart.destroy();
  }, [stats]);
  return (
    <>
      <div className="chart-box">
        <canvas ref={canvas} aria-hidden="true" />
      </div>
      <details>
        <summary>Figures by day</summary>
        <DataTable
          rows={stats}
          label="Figures by day"
          empty=""
          rowKey={(s) => s.day}
          columns={[
            { label: 'Day', cell: (s) => s.day },
            { label: 'Transactions', cell: (s) => s.count },
            { label: 'Completed', cell: (s) => s.completed },
            { label: 'Failed', cell: (s) => s.failed },
            { label: 'Success rate', cell: (s) => (successRate(s) === undefined ? '—' : `${successRate(s)} %`) },
            {
              label: 'Volume',
              cell: (s) =>
                Object.entries(s.volume)
                  .map(([code, minor]) => formatAmount(minor, code))
                  .join(', ') || '—',
            },
          ]}
        />
      </details>
    </>
  );
}
