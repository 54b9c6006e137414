package dev.qaldy.status.boundary;

import dev.qaldy.status.groups.entity.GroupStatus;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import java.util.List;

/**
 * The {@code groups} of {@code summary.json}, like Statuspage's component groups: each way of
 * using the platform with its status and the ids of the components it relies on.
 */
public final class GroupJson {

    private GroupJson() {
    }

    /** The groups as a JSON array, positions from 1. */
    public static JsonArray of(List<GroupStatus> groups) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        int position = 1;
        for (GroupStatus group : groups) {
            JsonArrayBuilder ids = Json.createArrayBuilder();
            group.componentIds().forEach(ids::add);
            list.add(Json.createObjectBuilder()
                    .add("id", group.group().key())
                    .add("name", group.group().title())
                    .add("description", group.group().covers())
                    .add("position", position++)
                    .add("status", group.status().json())
                    .add("components", ids));
        }
        return list.build();
    }
}
