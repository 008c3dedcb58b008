#pragma once
// What to upload, where and how often: the sender's input, saved and reopened as JSON, and reproducible as a
// curl command line.

#include "upin/core/body_shapes.h"
#include "upin/core/digest.h"
#include "upin/core/enum_names.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QUrl>

#include <optional>

namespace upin::app {

struct PlanPart {
    // FieldFile: a form field (no filename) whose value is read from a file, as curl's -F name=<path.
    enum class Kind : uint8_t { Field, File, Synthetic, FieldFile };
    enum class Fill : uint8_t { Random, Zero, Pattern };
    Kind kind = Kind::Field;
    QString name;
    QString value;            // Field: the text
    QString path;             // File, FieldFile: read while sending, never loaded whole
    quint64 size = 0;         // Synthetic: bytes generated on the fly, nothing written to disk
    Fill fill = Fill::Random; // Synthetic
    // Synthetic: content shaped against the body's boundary (core/body_shapes.h) instead of fill. The probe's, so
    // not in the plan JSON or a curl command (curl picks its own boundary, which the dense shapes are made for).
    std::optional<core::BodyShape> shape;
    QString contentType; // optional override (File, Synthetic)
    QString filename;    // optional override; File defaults to the file's name, Synthetic to "<name>.bin"
    // File, FieldFile: a Content-Transfer-Encoding header for a part sent again as it was captured (its bytes are
    // still encoded: base64, quoted-printable); curl's -F ;headers="Content-Transfer-Encoding: …".
    QString transferEncoding;
};

// An extra request header; a disabled one is kept in the plan (the window's unticked row) and not sent.
struct PlanHeader {
    QString name;
    QString value;
    bool enabled = true;
    bool operator==(const PlanHeader&) const = default;
};
// Why a header cannot be sent as given (a name outside the RFC 9110 token set, CR, LF or NUL in its value, one we
// set ourselves); empty when it can. A value with a line break would split the request.
QString headerProblem(const QString& name, const QString& value);
// An RFC 9110 token (a header name, a Content-Transfer-Encoding): nothing that could end a header or a curl -F piece.
bool isHttpToken(const QString& text);
// Why a part's Content-Type cannot be sent as given, or put after curl's -F ;type=: a line break would split the
// part's head, and a parameter curl reads as its own -F option (type=, filename=, headers=, encoder=) would make a
// copied command read a local file (headers=@~/.ssh/id_rsa) or add headers. Empty when it can.
QString contentTypeProblem(const QString& contentType);
// -H 'Name: value', as curl takes it; nullopt with error when it has no colon or headerProblem() refuses it.
std::optional<PlanHeader> parseHeaderSpec(const QString& spec, QString* error);
// The methods an upload form is sent with.
bool isUploadMethod(const QString& method);
// An Authorization value for HTTP Basic (RFC 7617): the Send tab's helper, and a probe URL's user:password.
QString basicAuthorization(const QString& user, const QString& password);

struct UploadPlan {
    // Which HTTP client sends. Auto: the raw client (a QTcpSocket, or a QSslSocket for https://): about 2.6x faster
    // here than QNAM over http and 2x over https (QNAM pulls an upload 16 KiB per cross-thread round trip in Qt
    // 6.4; see docs/performance-network.md). QNAM is the choice for HTTP/2. Chunked framing always uses the raw client.
    enum class Engine : uint8_t { Auto, Qnam, Raw };
    QList<QUrl> targets;
    Engine engine = Engine::Auto;
    QList<PlanPart> parts;
    QString boundary;     // empty: a random one per run
    bool chunked = false; // Transfer-Encoding: chunked instead of Content-Length
    // HTTP/2 (send --http2): by ALPN over https, by prior knowledge over http; the raw engine's on libnghttp2
    // (sender/h2_upload.h), with its frame log, or QNAM's with Qt's HTTP/2 attributes. Not with chunked framing
    // (HTTP/2 has none) or split delimiters.
    bool http2 = false;
    bool expectContinue = false;
    // Each delimiter after the first is split between two writes, at an offset inside it that moves by one from
    // each delimiter to the next, each write sent at once (TCP_NODELAY) and a moment apart: a server's parser must
    // find delimiters that arrive in pieces (the probe's split-delimiters shape). The raw client only.
    bool splitDelimiters = false;
    // Read 512 KiB ahead instead of 4 MiB: for many uploads at once (the probe's parallel rounds), whose memory
    // would otherwise grow with their count.
    bool lean = false;
    QString method = QStringLiteral("POST"); // POST, PUT or PATCH
    QList<PlanHeader> headers;               // extra request headers
    int runs = 1;
    core::HashKind hash = core::HashKind::Sha256; // digest of each part while it streams
    // https: certificates trusted beside the system's (--cacert, e.g. the listener's own), or none checked at all
    // (--insecure: said in every run's report and in the window).
    QString caCertificates;
    bool insecure = false;
    // A run that makes no progress for this long (no byte of the body taken, no byte of an answer) ends with an
    // error: a server that accepts and then neither reads nor answers would otherwise hold it for ever.
    int stallTimeoutMs = 60'000;

    bool usesRawClient() const { return chunked || splitDelimiters || engine != Engine::Qnam; }
    QJsonObject toJson() const;
    static std::optional<UploadPlan> fromJson(const QJsonObject& json, QString* error = nullptr);
    // A POSIX shell command that makes curl send the same parts, fields and headers to the first target; above it,
    // a comment line for each field name that curl -F cannot send as it is.
    // Synthetic parts are generated into temporary files by the shell first (zeros and the pattern exactly).
    QString toCurl() const;
};

// Parses curl's -F syntax: name=value, name=@path[;type=T][;filename=F]. nullopt with error when malformed.
std::optional<PlanPart> parseFormSpec(const QString& spec, QString* error = nullptr);
// --synthetic name=SIZE[:random|zero|pattern]
std::optional<PlanPart> parseSyntheticSpec(const QString& spec, QString* error = nullptr);
QString shellQuote(const QString& text);
// The Content-Type a file part gets when none is given, from the file name's extension as curl does it (image/png
// for .png), with Qt's MIME database; application/octet-stream when the extension says nothing.
QString guessContentType(const QString& fileName);
inline constexpr core::EnumNames<UploadPlan::Engine, 3> kEngineNames{
    {{{UploadPlan::Engine::Auto, "auto"}, {UploadPlan::Engine::Qnam, "qnam"}, {UploadPlan::Engine::Raw, "raw"}}}};
std::optional<UploadPlan::Engine> engineFromName(const QString& name);

} // namespace upin::app

Q_DECLARE_METATYPE(upin::app::UploadPlan)
