package dev.qaldy.control.people.boundary;

import dev.qaldy.control.people.entity.Person;
import dev.qaldy.control.platform.boundary.CurrentSession;
import dev.qaldy.control.platform.boundary.JsonBody;
import dev.qaldy.control.platform.boundary.SignedIn;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import java.io.InputStream;

/** {@code /api/v1/people}: sign up, and who am I. */
@Path("people")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class PeopleResource {

    /** A person as the API shows them. */
    public record PersonView(long id, String email) {

        static PersonView of(Person person) {
            return new PersonView(person.id(), person.email());
        }
    }

    @Inject
    People people;

    @Inject
    CurrentSession current;

    /** {@code {email, password}} → 201 {@code {id, email}}; bad email or password → 400; taken → 409. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response signUp(InputStream body, @Context UriInfo uri) {
        JsonBody json = JsonBody.read(body);
        Person person = people.signUp(json.text("email"), json.text("password"));
        return Response.created(uri.getAbsolutePathBuilder().path(Long.toString(person.id())).build())
                .entity(PersonView.of(person)).build();
    }

    /** The signed-in person. */
    @GET
    @Path("me")
    @SignedIn
    public PersonView me() {
        return PersonView.of(people.signedIn(current.get().personId()));
    }
}
