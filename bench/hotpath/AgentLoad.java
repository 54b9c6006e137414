import com.sun.tools.attach.VirtualMachine;

/**
 * Loads a native agent into a running JVM with these options: {@code java AgentLoad.java PID LIBRARY OPTIONS}.
 * jcmd's JVMTI.agent_load cannot pass options that hold '=' (it reads them as its own arguments),
 * and async-profiler's all do. Used by bench/hotpath/async-profile.
 */
public class AgentLoad {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java AgentLoad.java PID LIBRARY OPTIONS");
            System.exit(2);
        }
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }
}
