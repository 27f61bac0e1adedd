// The system SQLite (libsqlite3-dev): the embedded store, with WAL and explicit durability settings.
#include <sqlite3.h>
