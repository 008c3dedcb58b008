#include "models/capture_filter.h"
#include "models/capture_list_model.h"

#include "common/byte_size.h"

#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <utility>

namespace upin::ui {

namespace {

// "<", "<=", ">", ">=", and ":" or "=" for equal.
bool compare(double value, const QString& op, double bound)
{
    if (op == QLatin1String(">"))
        return value > bound;
    if (op == QLatin1String(">="))
        return value >= bound;
    if (op == QLatin1String("<"))
        return value < bound;
    if (op == QLatin1String("<="))
        return value <= bound;
    return value == bound;
}

// The host of a forwarded or proxied row's URL ("→ http://host:port/path", "proxy → …"); empty for our own.
QString upstreamHost(const QString& endpoint)
{
    const qsizetype arrow = endpoint.indexOf(QStringLiteral("→ "));
    return arrow < 0 ? QString() : QUrl(endpoint.mid(arrow + 2)).host();
}

const QStringList kKeys = {QStringLiteral("method"), QStringLiteral("status"), QStringLiteral("size"),
                           QStringLiteral("host"),   QStringLiteral("state"),  QStringLiteral("endpoint"),
                           QStringLiteral("client"), QStringLiteral("is")};

// Letters to insert, delete, change or swap with the next to turn a into b (the optimal string alignment distance:
// "hots" is one swap from "host"); words of a few letters.
qsizetype editDistance(const QString& a, const QString& b)
{
    QList<QList<qsizetype>> d(a.size() + 1, QList<qsizetype>(b.size() + 1));
    for (qsizetype i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (qsizetype j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (qsizetype i = 1; i <= a.size(); ++i)
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const bool same = a[i - 1].toLower() == b[j - 1];
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1].toLower() == b[j - 2] && a[i - 2].toLower() == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

const QRegularExpression kOperator(QStringLiteral("[:=<>!]"));

// The key a free-text term seems to misspell ("stauts:404", "sise>10M"), or empty: "localhost:8080" is a word to
// find.
QString misspeltKey(const QString& term)
{
    const qsizetype at = term.indexOf(kOperator);
    const QString word = term.left(at);
    if (at < 3)
        return {};
    QString nearest;
    qsizetype best = 3;
    for (const QString& key : kKeys)
        if (const qsizetype d = editDistance(word, key); key.size() > 2 && d < best && d <= (key.size() > 4 ? 2 : 1)) {
            nearest = key;
            best = d;
        }
    return nearest;
}

} // namespace

CaptureFilter::CaptureFilter(CaptureListModel* source, QObject* parent)
    : QSortFilterProxyModel(parent), m_source(source)
{
    setSourceModel(source);
}

QStringList CaptureFilter::suggestions()
{
    return {QStringLiteral("method:POST"),    QStringLiteral("method:PUT"),     QStringLiteral("method:PATCH"),
            QStringLiteral("method:GET"),     QStringLiteral("status:"),        QStringLiteral("status>=400"),
            QStringLiteral("status:2xx"),     QStringLiteral("size>"),          QStringLiteral("size<"),
            QStringLiteral("host:"),          QStringLiteral("state:complete"), QStringLiteral("state:incomplete"),
            QStringLiteral("state:rejected"), QStringLiteral("state:refused"),  QStringLiteral("state:failed"),
            QStringLiteral("endpoint:"),      QStringLiteral("client:"),        QStringLiteral("is:probe")};
}

void CaptureFilter::setText(const QString& text)
{
    m_tests.clear();
    m_problem.clear();
    m_hint.clear();
    m_showProbe = false;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const bool negated = word.startsWith(QLatin1Char('-')) && word.size() > 1;
        const QString term = negated ? word.mid(1) : word;
        if (term.compare(QLatin1String("is:probe"), Qt::CaseInsensitive) == 0)
            m_showProbe = !negated;
        Test test = termTest(term);
        if (!test) // unreadable: nothing matches, and problem() says why
            test = [](int) { return false; };
        m_tests.append(negated ? Test([test](int row) { return !test(row); }) : test);
    }
    invalidateFilter();
}

// What a term searched as text may have meant: "status!=200", a misspelt key ("stauts:404"); empty: nothing.
QString CaptureFilter::textTermHint(const QString& term)
{
    static const QRegularExpression notEqual(QStringLiteral("^(\\w+)!=(.*)$"));
    if (const QRegularExpressionMatch ne = notEqual.match(term); ne.hasMatch())
        return tr("%1 is searched for as text: -%2:%3 leaves those out").arg(term, ne.captured(1), ne.captured(2));
    const QString key = misspeltKey(term);
    if (key.isEmpty())
        return {};
    qsizetype end = term.indexOf(kOperator); // the operator as typed: ":", ">=", "<"
    while (end < term.size() && kOperator.match(term.mid(end, 1)).hasMatch())
        ++end;
    const QString op = term.mid(term.indexOf(kOperator), end - term.indexOf(kOperator));
    return tr("%1 is searched for as text: did you mean %2%3?").arg(term, key, op);
}

// status:404, status:4xx (a class), status>=400; empty when value is none of them.
CaptureFilter::Test CaptureFilter::statusTest(const QString& op, const QString& value) const
{
    const CaptureListModel* model = m_source;
    const bool ordered = op != QLatin1String(":") && op != QLatin1String("=");
    if (!ordered && value.size() == 3 && value.endsWith(QLatin1String("xx"), Qt::CaseInsensitive) &&
        value[0] >= QLatin1Char('1') && value[0] <= QLatin1Char('5')) // a class: 4xx
        return [model, digit = value[0].digitValue()](int row) { return model->row(row).status() / 100 == digit; };
    bool ok = false;
    const int status = value.toInt(&ok);
    if (!ok)
        return {};
    return [model, op, status](int row) {
        return model->row(row).status() > 0 && compare(model->row(row).status(), op, status);
    };
}

CaptureFilter::Test CaptureFilter::termTest(const QString& term)
{
    static const QRegularExpression keyed(QStringLiteral("^(method|status|size|host|state|endpoint|client|is)"
                                                         "(:|=|>=|<=|>|<)(.*)$"),
                                          QRegularExpression::CaseInsensitiveOption);
    const CaptureListModel* model = m_source;
    auto cell = [model](int row, int column) { return model->index(row, column).data().toString(); };
    const QRegularExpressionMatch m = keyed.match(term);
    if (!m.hasMatch() && m_hint.isEmpty())
        m_hint = textTermHint(term);
    if (!m.hasMatch()) // free text: any column holding it
        return [cell, term](int row) {
            for (int column = 0; column < CaptureListModel::ColumnCount; ++column)
                if (cell(row, column).contains(term, Qt::CaseInsensitive))
                    return true;
            return false;
        };
    const QString key = m.captured(1).toLower(), op = m.captured(2), value = m.captured(3);
    auto fail = [this](const QString& why) { // the first term that cannot be read is the one said
        if (m_problem.isEmpty())
            m_problem = why;
        return Test();
    };
    if (value.isEmpty()) // a term still being typed ("method:") narrows nothing yet
        return [](int) { return true; };
    const bool ordered = op != QLatin1String(":") && op != QLatin1String("=");
    if (key == QLatin1String("status")) {
        Test test = statusTest(op, value);
        return test ? test : fail(tr("%1: give a status (404), a class (4xx) or a comparison (status>=400)").arg(term));
    }
    if (key == QLatin1String("size")) {
        const std::optional<qulonglong> bytes = app::parseByteSize(value);
        if (!bytes)
            return fail(tr("%1: give a size, such as size>10M").arg(term));
        // A refused request took no body: it has no size to compare.
        return [model, op, bytes](int row) {
            return model->row(row).state != app::CaptureState::Refused &&
                   compare(double(model->row(row).bytes), op, double(*bytes));
        };
    }
    if (ordered)
        return fail(tr("%1: only status and size compare with < and >").arg(term));
    if (key == QLatin1String("is")) {
        if (value.compare(QLatin1String("probe"), Qt::CaseInsensitive) != 0)
            return fail(tr("%1: the one is: there is is:probe, a probe's uploads").arg(term));
        return [model](int row) { return model->row(row).fromProbe; };
    }
    if (key == QLatin1String("method"))
        return [model, value](int row) { return model->row(row).method.compare(value, Qt::CaseInsensitive) == 0; };
    if (key == QLatin1String("host"))
        return [model, value](int row) {
            const auto& r = model->row(row);
            return upstreamHost(r.endpoint).contains(value, Qt::CaseInsensitive) ||
                   r.client.contains(value, Qt::CaseInsensitive);
        };
    const int column = key == QLatin1String("state")      ? CaptureListModel::State
                       : key == QLatin1String("endpoint") ? CaptureListModel::Endpoint
                                                          : CaptureListModel::Client;
    return [cell, column, value](int row) { return cell(row, column).contains(value, Qt::CaseInsensitive); };
}

bool CaptureFilter::filterAcceptsRow(int sourceRow, const QModelIndex& /*sourceParent*/) const
{
    if (m_source->row(sourceRow).fromProbe && !m_showProbe)
        return false;
    for (const Test& test : m_tests)
        if (!test(sourceRow))
            return false;
    return true;
}

int CaptureFilter::hiddenProbeUploads() const
{
    int hidden = 0;
    for (int row = 0; !m_showProbe && row < m_source->rowCount(); ++row)
        hidden += m_source->row(row).fromProbe ? 1 : 0;
    return hidden;
}

} // namespace upin::ui
