#pragma once
// The Listen list's filter: words typed as HTTP Toolkit's filter bar takes them, every term to hold (AND), "-"
// before one to exclude it:
//   method:PUT          the method (any case)
//   status:404  status>=400  status<300  status:4xx   the status the client got
//   size>10M  size<=1K  the body's size (a size as the CLI takes it)
//   host:example        the forwarded or proxied URL's host, or the client, holding this
//   state:refused  endpoint:/file-part  client:127.0.0.1   a column holding this
//   is:probe            a probe's uploads, which are hidden unless this asks for them
//   anything else       any column holding it, as typed
// A term that cannot be read ("status>=x") is said by problem() and matches nothing, so that a typo never shows
// everything as if it had matched.

#include <QSortFilterProxyModel>
#include <QStringList>

#include <functional>

namespace upin::ui {

class CaptureListModel;

class CaptureFilter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit CaptureFilter(CaptureListModel* source, QObject* parent = nullptr);
    void setText(const QString& text);
    QString problem() const { return m_problem; } // the first term that cannot be read, in words; empty when none
    QString hint() const { return m_hint; }       // a term found as text that looks like a misspelt key: which one
    int hiddenProbeUploads() const;               // probe uploads the filter keeps out (none when is:probe asks)
    // What completion offers for the word being typed: the keys, and for method:, state: and is: their values.
    static QStringList suggestions();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    using Test = std::function<bool(int sourceRow)>;
    Test termTest(const QString& term); // empty with m_problem set when the term cannot be read
    Test statusTest(const QString& op, const QString& value) const;
    static QString textTermHint(const QString& term);
    CaptureListModel* m_source;
    QList<Test> m_tests;
    bool m_showProbe = false;
    QString m_problem;
    QString m_hint;
};

} // namespace upin::ui
