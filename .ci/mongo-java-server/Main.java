import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/** mongo-java-server, in memory, on a loopback port (0: a free one); prints the address it bound. */
public class Main {
  public static void main(String[] args) throws Exception {
    MongoServer server = new MongoServer(new MemoryBackend());
    server.bind("127.0.0.1", args.length > 0 ? Integer.parseInt(args[0]) : 0);
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("listening " + server.getLocalAddress().getPort());
    Thread.currentThread().join();
  }
}
