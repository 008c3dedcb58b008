#include "views/filter_completion.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QLineEdit>
#include <QStringListModel>

namespace upin::ui {

namespace {
// Where the word under the cursor begins: after the last space before it.
qsizetype wordStart(const QLineEdit* line)
{
    const qsizetype space = line->text().left(line->cursorPosition()).lastIndexOf(QLatin1Char(' '));
    return space + 1;
}
} // namespace

void completeFilterWords(QLineEdit* line, const QStringList& words)
{
    auto* completer = new QCompleter(new QStringListModel(words, line), line);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setCompletionMode(QCompleter::PopupCompletion);
    completer->setWidget(line); // not line->setCompleter(): that would replace the whole line
    QObject::connect(line, &QLineEdit::textEdited, completer, [line, completer] {
        const qsizetype from = wordStart(line);
        // A leading "-" (a term excluded) is kept, and the key after it completed.
        QString word = line->text().mid(from, line->cursorPosition() - from);
        if (word.startsWith(QLatin1Char('-')))
            word.remove(0, 1);
        if (word.isEmpty()) {
            completer->popup()->hide();
            return;
        }
        completer->setCompletionPrefix(word);
        if (completer->completionCount() == 0 ||
            (completer->completionCount() == 1 && completer->currentCompletion() == word)) {
            completer->popup()->hide();
            return;
        }
        completer->complete();
    });
    QObject::connect(completer, qOverload<const QString&>(&QCompleter::activated), line, [line](const QString& chosen) {
        const qsizetype from = wordStart(line);
        const QString typed = line->text().mid(from, line->cursorPosition() - from);
        const QString kept = typed.startsWith(QLatin1Char('-')) ? QStringLiteral("-") : QString();
        QString text = line->text();
        text.replace(from, typed.size(), kept + chosen);
        line->setText(text);
        line->setCursorPosition(int(from + kept.size() + chosen.size()));
    });
}

} // namespace upin::ui
