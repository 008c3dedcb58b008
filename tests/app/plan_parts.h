#pragma once
// Parts of an upload plan, as the sender's tests write them.

#include "sender/upload_plan.h"

namespace upin::test {

inline app::PlanPart filePart(const QString& name, const QString& path, const QString& type = {},
                              const QString& filename = {})
{
    app::PlanPart p;
    p.kind = app::PlanPart::Kind::File;
    p.name = name;
    p.path = path;
    p.contentType = type;
    p.filename = filename;
    return p;
}

inline app::PlanPart field(const QString& name, const QString& value)
{
    app::PlanPart p;
    p.name = name;
    p.value = value;
    return p;
}

inline app::PlanPart synthetic(const QString& name, quint64 size,
                               app::PlanPart::Fill fill = app::PlanPart::Fill::Random)
{
    app::PlanPart p;
    p.kind = app::PlanPart::Kind::Synthetic;
    p.name = name;
    p.size = size;
    p.fill = fill;
    return p;
}

} // namespace upin::test
