package dev.qaldy.control.data.entity;

/**
 * Who reads or writes an app's data: a signed-in person who may open the app (owner or viewer),
 * or the app's own server code, which the runtime host sends with the app-scoped credential.
 */
public sealed interface DataCaller {

    /** A person, by id: the access rules decide whether they may open the app. */
    record Person(long id) implements DataCaller {
    }

    /** The server code of {@code app}: it reaches that app's data and no other's. */
    record AppCode(String app) implements DataCaller {
    }

    static DataCaller person(long id) {
        return new Person(id);
    }

    static DataCaller appCode(String app) {
        return new AppCode(app);
    }

    /** What records written by app code name as their author. */
    String APP_CODE_AUTHOR = "server.js";
}
