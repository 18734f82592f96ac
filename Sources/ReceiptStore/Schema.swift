import Foundation

/// Versioned migrations. The store's version is SQLite's `PRAGMA user_version`;
/// opening a store runs every migration above it, in order, in one transaction,
/// so an older file is upgraded in place (and a half-upgraded file cannot exist).
/// Never edit a migration that has shipped: add a new one.
enum Schema {
    struct Migration: Sendable {
        var version: Int
        var summary: String
        var sql: String
        /// Rewrites stored data after `sql`, inside the same transaction (the same on both engines).
        var data: (@Sendable (any SQLConnection) throws -> Void)? = nil
    }

    static var latest: Int { migrations.last!.version }

    static let migrations: [Migration] = [
        Migration(version: 1, summary: "items, receipts, line items, links", sql: """
        CREATE TABLE items (
            id            INTEGER PRIMARY KEY,
            external_id   TEXT,                 -- id in the app it came from (Nestory UUID, Homebox asset id, CSV id)
            source        TEXT NOT NULL,        -- csv | homebox | nestory | api
            name          TEXT NOT NULL,
            brand         TEXT,
            model         TEXT,
            serial        TEXT,
            category      TEXT,
            room          TEXT,
            quantity      INTEGER NOT NULL DEFAULT 1,
            price         TEXT,                 -- exact decimal, e.g. '349.99'
            price_cents   INTEGER,              -- same value in minor units, for indexing
            currency      TEXT,
            purchase_date TEXT,                 -- ISO YYYY-MM-DD
            purchase_day  INTEGER,              -- days since 1970-01-01, for indexing
            vendor        TEXT,
            notes         TEXT,
            created_at    TEXT NOT NULL,
            updated_at    TEXT NOT NULL
        );
        CREATE UNIQUE INDEX items_external_id ON items(external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX items_natural_key ON items(name COLLATE NOCASE, purchase_date, price_cents);

        CREATE TABLE receipts (
            id                  INTEGER PRIMARY KEY,
            content_hash        TEXT NOT NULL UNIQUE,   -- SHA-256 of the image bytes
            status              TEXT NOT NULL CHECK (status IN ('parsed', 'needs_review')),
            ocr_text            TEXT,
            vendor              TEXT, vendor_confidence REAL,
            date                TEXT, date_day INTEGER, date_confidence REAL,
            time                TEXT, time_confidence REAL,
            total               TEXT, total_cents INTEGER, total_confidence REAL,
            subtotal            TEXT, subtotal_confidence REAL,
            tax                 TEXT, tax_confidence REAL,
            currency            TEXT, currency_confidence REAL,
            receipt_number      TEXT, receipt_number_confidence REAL,
            payment_method      TEXT, payment_method_confidence REAL,
            card_last4          TEXT, card_last4_confidence REAL,
            parsed_json         TEXT NOT NULL,          -- the whole ParsedReceipt: evidence, rejected candidates, checks
            engine_version      TEXT NOT NULL,
            parser_version      TEXT NOT NULL,
            processed_at        TEXT NOT NULL
        );

        CREATE TABLE receipt_sources (
            receipt_id  INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
            path        TEXT NOT NULL,
            added_at    TEXT NOT NULL,
            PRIMARY KEY (receipt_id, path)
        );

        CREATE TABLE line_items (
            receipt_id   INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
            position     INTEGER NOT NULL,
            description  TEXT NOT NULL,
            quantity     TEXT,
            unit_price   TEXT,
            amount       TEXT NOT NULL,
            amount_cents INTEGER NOT NULL,
            evidence_json TEXT NOT NULL,
            PRIMARY KEY (receipt_id, position)
        );

        CREATE TABLE links (
            id          INTEGER PRIMARY KEY,
            receipt_id  INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
            item_id     INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            score       REAL NOT NULL,
            reasons     TEXT NOT NULL,          -- JSON array of sentences
            status      TEXT NOT NULL CHECK (status IN ('proposed', 'confirmed', 'rejected')),
            decided_by  TEXT,
            decided_at  TEXT,
            created_at  TEXT NOT NULL,
            updated_at  TEXT NOT NULL,
            UNIQUE (receipt_id, item_id)
        );
        CREATE INDEX links_item ON links(item_id);
        """),
        Migration(version: 2, summary: "reconciler: indexes by amount and date, duplicates, failures, line of a link", sql: """
        ALTER TABLE receipts ADD COLUMN duplicate_of INTEGER REFERENCES receipts(id) ON DELETE SET NULL;
        ALTER TABLE receipts ADD COLUMN duplicate_reason TEXT;
        ALTER TABLE links ADD COLUMN line_item_position INTEGER;
        ALTER TABLE links ADD COLUMN ambiguous INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX receipts_date_day ON receipts(date_day);
        CREATE INDEX receipts_total_cents ON receipts(total_cents);
        CREATE INDEX line_items_amount ON line_items(amount_cents);
        CREATE INDEX items_purchase_day ON items(purchase_day);
        CREATE INDEX items_price_cents ON items(price_cents);
        CREATE INDEX links_status ON links(status);

        CREATE TABLE failures (
            id           INTEGER PRIMARY KEY,
            path         TEXT NOT NULL UNIQUE,  -- the latest failure per file
            content_hash TEXT,
            code         TEXT NOT NULL,
            message      TEXT NOT NULL,
            failed_at    TEXT NOT NULL
        );
        """),
        Migration(version: 3, summary: "what OCR read (pages, looks, lines, words, boxes) for re-parsing without loss", sql: """
        -- JSON of ReceiptModel.OCRReading. NULL for receipts stored before version 3:
        -- they keep their ocr_text and re-parse from it.
        ALTER TABLE receipts ADD COLUMN ocr_reading TEXT;
        """),
        Migration(version: 4, summary: "the user's corrections, with who and when, kept across re-reads", sql: """
        -- receipts.vendor … card_last4 and line_items hold the values as the user sees them: the
        -- parser's (parsed_json) with the active corrections in place, re-applied after every re-read.
        CREATE TABLE corrections (
            id            INTEGER PRIMARY KEY,
            receipt_id    INTEGER NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
            field         TEXT NOT NULL,        -- vendor, date, total, … line_items (CorrectableField)
            value         TEXT,                 -- canonical text (decimal string, ISO date, JSON for line_items); NULL: cleared
            previous      TEXT,                 -- what the field showed before
            corrected_by  TEXT NOT NULL,
            corrected_at  TEXT NOT NULL,
            undone_by     TEXT,
            undone_at     TEXT                  -- NULL while the correction holds
        );
        CREATE INDEX corrections_receipt ON corrections(receipt_id, field);
        """),
    ] + laterMigrations(for: .sqlite)

    /// The migrations after version 4, which both engines take (in their own SQL).
    static func laterMigrations(for dialect: SQLDialect) -> [Migration] {
        let text = dialect == .postgres ? #"TEXT COLLATE "C""# : "TEXT"
        let seconds = dialect == .postgres ? "DOUBLE PRECISION" : "REAL"
        let int = dialect == .postgres ? "BIGINT" : "INTEGER"
        let id = dialect == .postgres ? "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" : "INTEGER PRIMARY KEY"
        return [
            Migration(version: 5, summary: "claims: which batch worker reads which image, until when", sql: """
            -- A worker claims an image (by content hash) before reading it, with a lease it renews
            -- while it reads; saving the receipt or its failure ends the claim. A claim whose lease
            -- ran out (the worker died) is taken by the next worker that asks.
            CREATE TABLE claims (
                content_hash \(text) PRIMARY KEY,
                worker       TEXT NOT NULL,       -- host:pid:random of the batch process
                path         TEXT NOT NULL,
                claimed_at   \(text) NOT NULL,
                expires_at   \(seconds) NOT NULL  -- seconds since 1970 on the store's clock
            );
            CREATE INDEX claims_worker ON claims(worker);
            """),
            Migration(version: 6, summary: "notes and checks stored as codes with their arguments, not as sentences", sql: "",
                      data: LegacyNotes.migrate),
            Migration(version: 7, summary: "the shop directory: shops, what the receipts the user corrected taught them", sql: """
            -- Learned only from receipts the user corrected or confirmed (docs/learning.md). A receipt
            -- teaches one shop; what it taught is replaced whenever its corrections change.
            CREATE TABLE shops (
                id          \(id),
                name        TEXT NOT NULL,       -- the name the user gave or confirmed
                name_key    \(text) NOT NULL UNIQUE,  -- ShopName.key(name): one shop per key
                created_at  \(text) NOT NULL,
                updated_at  \(text) NOT NULL
            );
            CREATE TABLE shop_keys (
                shop_id     \(int) NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
                receipt_id  \(int) NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,  -- the receipt that taught it
                kind        TEXT NOT NULL,       -- registration, tax, phone, address, header (ShopKeyKind)
                value       \(text) NOT NULL,
                learned_at  \(text) NOT NULL,
                PRIMARY KEY (receipt_id, kind, value)
            );
            CREATE INDEX shop_keys_shop ON shop_keys(shop_id);
            CREATE TABLE shop_habits (
                shop_id       \(int) NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
                receipt_id    \(int) NOT NULL REFERENCES receipts(id) ON DELETE CASCADE,
                correction_id \(int) NOT NULL REFERENCES corrections(id) ON DELETE CASCADE,
                field         TEXT NOT NULL,     -- total, date
                line_json     TEXT NOT NULL,     -- the kind of line (ReceiptModel.LineKind)
                learned_at    \(text) NOT NULL,
                PRIMARY KEY (receipt_id, field)
            );
            CREATE INDEX shop_habits_shop ON shop_habits(shop_id);
            -- The shop the directory puts the receipt at (taken for it when read, or taught by it), and
            -- what that shop set when the receipt was read (ReceiptModel.LearnedFields), under the corrections.
            ALTER TABLE receipts ADD COLUMN shop_id \(int) REFERENCES shops(id) ON DELETE SET NULL;
            ALTER TABLE receipts ADD COLUMN learned_json TEXT;
            CREATE INDEX receipts_shop ON receipts(shop_id);
            """),
            Migration(version: 8, summary: "the serial numbers printed under a line item", sql: """
            -- One a line, as printed ("VT55-0098123"); NULL when the receipt prints none. Receipts
            -- stored before keep NULL until read again (batch --reparse): the parser did not look.
            ALTER TABLE line_items ADD COLUMN serials TEXT;
            """),
        ]
    }

    /// Brings the store at `db` to `target` (default: latest). Safe when several
    /// processes open the same new or old file at once: the version is re-read
    /// under the write lock, so each migration runs exactly once.
    static func migrate(_ db: Database<SQLiteConnection>, to target: Int = latest) throws {
        try db.locked { db in
            let current = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            if current > latest { throw StoreError.schemaTooNew(found: current, supported: latest, location: db.path) }
            let stamped = try db.scalarInt("PRAGMA application_id") == Int64(SQLiteConnection.applicationID)
            if current >= target && stamped { return }
            try db.exec("BEGIN IMMEDIATE", context: "locking the store to upgrade it")
            do {
                let now = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
                for m in migrations where m.version > now && m.version <= target {
                    if !m.sql.isEmpty { try db.exec(m.sql, context: "migrating the store to version \(m.version) (\(m.summary))") }
                    try m.data?(db)
                }
                if now < target { try db.exec("PRAGMA user_version = \(target)") }
                // Says "receipts store" to this program (and to `file`): set on creation, and on the first
                // open of a store made before the id existed.
                try db.exec("PRAGMA application_id = \(SQLiteConnection.applicationID)")
                try db.exec("COMMIT", context: "committing the upgrade")
            } catch {
                try? db.exec("ROLLBACK")
                throw error
            }
        }
    }

    static func version(_ db: Database<SQLiteConnection>) throws -> Int {
        try db.locked { Int(try $0.scalarInt("PRAGMA user_version") ?? 0) }
    }
}
