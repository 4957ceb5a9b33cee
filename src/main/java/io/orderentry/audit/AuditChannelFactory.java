package io.orderentry.audit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opens the channel the {@link AuditTrail} writes a file through; replaceable to inject I/O failures in tests. */
@FunctionalInterface
public interface AuditChannelFactory {

    /** Opens files on the default file system. */
    AuditChannelFactory FILES = (path, create) -> create
            ? FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)
            : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);

    /**
     * @param path   the audit file
     * @param create true to create a new file (failing if it exists), false to open an existing one
     * @return a channel open for reading and writing
     */
    FileChannel open(Path path, boolean create) throws IOException;
}
