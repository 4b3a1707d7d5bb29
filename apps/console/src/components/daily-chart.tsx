import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { DayStats, successRate } from '../lib/daily-stats';
import { formatAmount } from '../lib/money';
import { ScrollTable } from './scroll-table';

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
        <ScrollTable label="Figures by day">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Transactions</th>
                <th scope="col">Completed</th>
                <th scope="col">Failed</th>
                <th scope="col">Success rate</th>
                <th scope="col">Volume</th>
              </tr>
            </thead>
            <tbody>
              {stats.map((s) => (
                <tr key={s.day}>
                  <td>{s.day}</td>
                  <td>{s.count}</td>
                  <td>{s.completed}</td>
                  <td>{s.failed}</td>
                  <td>{successRate(s) === undefined ? '—' : `${successRate(s)} %`}</td>
                  <td>
                    {Object.entries(s.volume)
                      .map(([code, minor]) => formatAmount(minor, code))
                      .join(', ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      </details>
    </>
  );
}
