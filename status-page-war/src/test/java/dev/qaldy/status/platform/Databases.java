package dev.qaldy.status.platform;

import java.util.UUID;

/** Fresh in-memory status page databases for tests (H2, same schema as the real file). */
public final class Databases {

    private Databases() {
    }

    /** A new, empty database with the schema; close it after the test. */
    public static StatusDatabase fresh() {
        StatusDatabase database = new StatusDatabase();
        database.open("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        return database;
    }
}
