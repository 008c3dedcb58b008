#pragma once
// Completion of the word being typed in a filter line (the Listen list's terms), not of the whole line as
// QLineEdit::setCompleter does: "status>=400 meth" offers method:POST, method:PUT… and a choice replaces "meth"
// alone.

#include <QStringList>

class QLineEdit;

namespace upin::ui {

void completeFilterWords(QLineEdit* line, const QStringList& words);

} // namespace upin::ui
