// The SQLite database file's health: its identity (to tell a replaced file), the probe behind
// GET /healthz, and connections that leave the server's WAL alone when they close.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

struct sqlite3;

namespace senet::server {

/// A file's device and inode numbers: tell the file a server opened from one put in its place.
struct FileIdentity {
    dev_t device;
    ino_t inode;
    bool operator==(const FileIdentity&) const = default;
};

/// The identity of the file at `path` (stat, following links), or nullopt when there is none.
std::optional<FileIdentity> fileIdentity(const std::string& path);

/// Makes SQLite connection `db` (open, no statement run yet) leave the WAL as it is when it
/// closes: no checkpoint, no deletion. For the connections other than the server's own (the
/// health probe, backups): if the database file was replaced, such a connection could be the
/// only one to the new file, and its close would fold the server's WAL into it and delete it.
void keepWalOnClose(sqlite3* db);

/// The probe of a SQLite database (`path`, the server's file): a fresh connection (never
/// creating the file) must open it read-write and read its schema — without taking the write
/// lock, so the server's writer never waits for it — and its file system must have at least
/// 1 MiB free; and when `opened` is given, the file at `path` must still be that one (not
/// deleted, moved or replaced since the server opened it). "" or the reason (naming the file,
/// not its directory). The probe's connection never folds the WAL nor deletes it when it
/// closes (keepWalOnClose). Never throws.
std::string sqliteHealth(const std::string& path, const std::optional<FileIdentity>& opened = std::nullopt);

}  // namespace senet::server
