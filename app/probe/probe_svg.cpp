#include "probe/probe_svg.h"

#include <algorithm>
#include <cmath>

namespace upin::app {

namespace {

constexpr double kWidth = 760, kHeight = 340;
constexpr double kLeft = 70, kRight = 20, kTop = 50, kBottom = 80; // below: tilted category names
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString number(double v)
{
    return QString::number(v, 'g', 4);
}

// One axis: where a value lands in [0, 1] of the plot, and the ticks to label.
struct Scale {
    double low = 0, high = 1;
    bool log = false;
    QList<double> ticks;

    static Scale of(QList<double> values, bool log, bool fromZero)
    {
        Scale s;
        s.log = log;
        values.erase(std::remove_if(values.begin(), values.end(), [log](double v) { return log ? v <= 0 : v < 0; }),
                     values.end());
        if (values.isEmpty())
            return s;
        const auto [lo, hi] = std::minmax_element(values.cbegin(), values.cend());
        if (log) {
            s.low = std::floor(std::log10(*lo / 1.05) * 3) / 3;
            s.high = std::max(s.low + 0.3, std::ceil(std::log10(*hi * 1.05) * 3) / 3);
            for (int e = int(std::floor(s.low)); e <= int(std::ceil(s.high)); ++e)
                for (double m : {1.0, 2.0, 5.0})
                    if (const double t = std::log10(m) + e; t >= s.low - 1e-9 && t <= s.high + 1e-9)
                        s.ticks.append(m * std::pow(10.0, e));
            return s;
        }
        s.low = fromZero ? 0 : *lo;
        const double span = std::max(*hi - s.low, *hi > 0 ? *hi * 0.1 : 1.0);
        const double raw = span / 5, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        double step = magnitude;
        for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
            if (m * magnitude >= raw) {
                step = m * magnitude;
                break;
            }
        s.low = std::floor(s.low / step) * step;
        s.high = s.low + std::ceil((*hi - s.low) / step) * step;
        if (s.high <= s.low)
            s.high = s.low + step;
        const int steps = int(std::lround((s.high - s.low) / step));
        for (int i = 0; i <= steps; ++i)
            s.ticks.append(s.low + step * i);
        return s;
    }
    double at(double v) const
    {
        const double x = log ? std::log10(std::max(v, 1e-300)) : v;
        return (x - low) / (high - low);
    }
};

QString frame(const ChartSpec& axes, const Scale& y)
{
    QString svg = QStringLiteral("<svg xmlns='http://www.w3.org/2000/svg' width='%1' height='%2' viewBox='0 0 %1 %2' "
                                 "font-family='sans-serif' font-size='12'>\n"
                                 "<text x='%3' y='20' font-size='14' font-weight='bold'>%4</text>\n")
                      .arg(kWidth)
                      .arg(kHeight)
                      .arg(kLeft)
                      .arg(esc(axes.title));
    for (double t : y.ticks) {
        const double py = kTop + kPlotH * (1 - y.at(t));
        svg += QStringLiteral("<line x1='%1' x2='%2' y1='%3' y2='%3' stroke='#ddd'/><text x='%4' y='%5' "
                              "text-anchor='end'>%6</text>\n")
                   .arg(kLeft)
                   .arg(kLeft + kPlotW)
                   .arg(py, 0, 'f', 1)
                   .arg(kLeft - 6)
                   .arg(py + 4, 0, 'f', 1)
                   .arg(number(t));
    }
    svg += QStringLiteral("<rect x='%1' y='%2' width='%3' height='%4' fill='none' stroke='#888'/>\n"
                          "<text x='%5' y='%6' text-anchor='middle'>%7</text>\n"
                          "<text transform='translate(16 %8) rotate(-90)' text-anchor='middle'>%9</text>\n")
               .arg(kLeft)
               .arg(kTop)
               .arg(kPlotW)
               .arg(kPlotH)
               .arg(kLeft + kPlotW / 2)
               .arg(axes.categories.isEmpty() ? kTop + kPlotH + 36 : kHeight - 8)
               .arg(esc(axes.xLabel))
               .arg(kTop + kPlotH / 2)
               .arg(esc(axes.yLabel));
    return svg;
}

QString legend(const QList<ChartSeries>& series)
{
    QString svg;
    double x = kLeft; // on its own line under the title, which may be long
    for (const ChartSeries& s : series) {
        svg += QStringLiteral("<rect x='%1' y='26' width='12' height='12' fill='%2'/><text x='%3' y='36'>%4</text>\n")
                   .arg(x, 0, 'f', 1)
                   .arg(s.color)
                   .arg(x + 16, 0, 'f', 1)
                   .arg(esc(s.name));
        x += 30 + 7.0 * double(s.name.size());
    }
    return svg;
}

QString lineChart(const ChartSpec& axes)
{
    const QList<ChartSeries>& series = axes.series;
    QList<double> xs, ys;
    for (const ChartSeries& s : series)
        for (const QPointF& p : s.points)
            xs.append(p.x()), ys.append(p.y());
    Scale x = Scale::of(xs, axes.logX, false);
    const Scale y = Scale::of(ys, axes.logY, true);
    if (axes.logX) { // the sizes sent (doubling), rather than 1-2-5 ticks between them
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        x.ticks = xs;
    } else if (std::all_of(xs.cbegin(), xs.cend(), [](double v) { return v == std::floor(v); })) {
        // Counts (clients): no tick at 1.2 of them.
        x.ticks.erase(std::remove_if(x.ticks.begin(), x.ticks.end(), [](double t) { return t != std::floor(t); }),
                      x.ticks.end());
    }
    QString svg = frame(axes, y);
    for (double t : x.ticks)
        svg += QStringLiteral("<text x='%1' y='%2' text-anchor='middle'>%3</text>\n")
                   .arg(kLeft + kPlotW * x.at(t), 0, 'f', 1)
                   .arg(kTop + kPlotH + 16)
                   .arg(number(t));
    for (const ChartSeries& s : series) {
        QStringList points;
        QString dots;
        for (const QPointF& p : s.points) {
            if ((axes.logX && p.x() <= 0) || (axes.logY && p.y() <= 0))
                continue;
            const double px = kLeft + kPlotW * x.at(p.x()), py = kTop + kPlotH * (1 - y.at(p.y()));
            points << QStringLiteral("%1,%2").arg(px, 0, 'f', 1).arg(py, 0, 'f', 1);
            if (s.points.size() <= 200) // a long series (RSS every 20 ms) reads as its line
                dots += QStringLiteral("<circle cx='%1' cy='%2' r='3' fill='%3'><title>%4: %5, %6</title></circle>\n")
                            .arg(px, 0, 'f', 1)
                            .arg(py, 0, 'f', 1)
                            .arg(s.color, esc(s.name), number(p.x()), number(p.y()));
        }
        svg += QStringLiteral("<polyline fill='none' stroke='%1' stroke-width='2'%2 points='%3'/>\n%4")
                   .arg(s.color, s.dashed ? QStringLiteral(" stroke-dasharray='6 4'") : QString(),
                        points.join(QLatin1Char(' ')), dots);
    }
    return svg + legend(series) + QStringLiteral("</svg>\n");
}

QString groupedBars(const ChartSpec& axes)
{
    const QList<ChartSeries>& series = axes.series;
    const QStringList& categories = axes.categories;
    QList<double> ys;
    for (const ChartSeries& s : series)
        for (const QPointF& p : s.points)
            ys.append(p.y());
    const Scale y = Scale::of(ys, false, true);
    QString svg = frame(axes, y);
    const double slot = kPlotW / double(std::max<qsizetype>(1, categories.size()));
    const double bar = slot * 0.8 / double(std::max<qsizetype>(1, series.size()));
    for (qsizetype c = 0; c < categories.size(); ++c) {
        // Tilted: ten shape names side by side do not fit level under 760 px.
        const double cx = kLeft + slot * (double(c) + 0.5), cy = kTop + kPlotH + 14;
        svg += QStringLiteral("<text x='%1' y='%2' text-anchor='end' transform='rotate(-25 %1 %2)'>%3</text>\n")
                   .arg(cx, 0, 'f', 1)
                   .arg(cy, 0, 'f', 1)
                   .arg(esc(categories[c]));
        for (qsizetype i = 0; i < series.size(); ++i) {
            const double value = series[i].points.value(c).y();
            const double top = kTop + kPlotH * (1 - y.at(std::max(0.0, value)));
            svg += QStringLiteral("<rect x='%1' y='%2' width='%3' height='%4' fill='%5'><title>%6 %7: %8</title>"
                                  "</rect>\n")
                       .arg(kLeft + slot * (double(c) + 0.1) + bar * double(i), 0, 'f', 1)
                       .arg(top, 0, 'f', 1)
                       .arg(bar - 1, 0, 'f', 1)
                       .arg(kTop + kPlotH - top, 0, 'f', 1)
                       .arg(series[i].color, esc(categories[c]), esc(series[i].name), number(value));
        }
    }
    return svg + legend(series) + QStringLiteral("</svg>\n");
}

} // namespace

QString svgChart(const ChartSpec& spec)
{
    return spec.categories.isEmpty() ? lineChart(spec) : groupedBars(spec);
}

} // namespace upin::app
