// Chart.js with only what the Insights charts draw (bars on a category and a linear axis, a legend and
// tooltips): imported by bar-chart.tsx on this screen only, so no other screen's bundle carries it.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export { Chart };
