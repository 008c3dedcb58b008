#pragma once
// What to trust of an https server's certificate, beside the system's CAs: a PEM file of more certificates (e.g.
// mkcert's root), or nothing checked at all. One row of two controls, for the forwarder's upstream (Listen tab)
// and the probe's target (Probe tab).

#include <QCheckBox>
#include <QPushButton>
#include <QWidget>

namespace upin::ui {

// A CA file remembered from an earlier session (a path, or the settings key it is under), offered again only while
// it is there to read (empty otherwise: the system's CAs).
QString offeredCaFile(const QString& path);
QString rememberedCaFile(const QString& key);

class TlsTrust final : public QWidget {
    Q_OBJECT
public:
    // whose: "https upstream", "https server": how the tooltips name the other side.
    TlsTrust(const QString& whose, const QString& objectPrefix, QWidget* parent = nullptr);
    QString caFile() const { return m_caFile; } // empty: the system's CAs only
    bool insecure() const { return m_insecure->isChecked(); }
    void setCaFile(const QString& path);
    QString offer(const QString& path); // a file the user picked: taken, or what is wrong with it (and kept none)
    QCheckBox* insecureBox() const { return m_insecure; }
    QPushButton* clearButton() const { return m_clear; }

private:
    QPushButton* m_ca;
    QPushButton* m_clear; // shown with a file chosen: cancelling the file dialog keeps the file
    QCheckBox* m_insecure;
    QString m_caFile;
};

} // namespace upin::ui
