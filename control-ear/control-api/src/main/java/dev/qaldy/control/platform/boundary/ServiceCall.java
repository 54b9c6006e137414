package dev.qaldy.control.platform.boundary;

import dev.qaldy.contract.keys.ServiceDirection;
import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks internal resources that only the cell's services may call, each with the credential of
 * its own direction in {@code X-Qaldy-Service-Token} ({@link ServiceTokenFilter}).
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ServiceCall {

    /** The directions whose credentials this resource accepts; another of the cell's gets 403. */
    ServiceDirection[] value() default {};
}
