package io.orderentry.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.List;

/** A {@link FileChannel} that delegates to a real one and fails on command, to test the writer's error path. */
final class FailingFileChannel extends FileChannel {

    private final FileChannel delegate;
    volatile boolean failWrites;
    volatile boolean failForce;
    volatile boolean failTruncate;

    FailingFileChannel(final FileChannel delegate) {
        this.delegate = delegate;
    }

    /** A factory whose channels are collected in {@code opened}. */
    static SegmentChannelFactory factory(final List<FailingFileChannel> opened) {
        return (path, create) -> {
            final FailingFileChannel channel = new FailingFileChannel(SegmentChannelFactory.FILES.open(path, create));
            opened.add(channel);
            return channel;
        };
    }

    /** Writes half of the bytes, then throws, like a device that fails mid-write, when told to fail. */
    @Override
    public int write(final ByteBuffer src, final long position) throws IOException {
        if (failWrites) {
            final ByteBuffer half = src.duplicate();
            half.limit(src.position() + src.remaining() / 2);
            delegate.write(half, position);
            throw new IOException("injected write failure");
        }
        return delegate.write(src, position);
    }

    @Override
    public void force(final boolean metaData) throws IOException {
        if (failForce) {
            throw new IOException("injected force failure");
        }
        delegate.force(metaData);
    }

    @Override
    public FileChannel truncate(final long size) throws IOException {
        if (failTruncate) {
            throw new IOException("injected truncate failure");
        }
        delegate.truncate(size);
        return this;
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException {
        return delegate.read(dst);
    }

    @Override
    public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
        return delegate.read(dsts, offset, length);
    }

    @Override
    public int write(final ByteBuffer src) throws IOException {
        if (failWrites) {
            throw new IOException("injected write failure");
        }
        return delegate.write(src);
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
        throw new UnsupportedOperationException("gathering write");
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(final long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public long transferTo(final long position, final long count, final WritableByteChannel target) throws IOException {
        return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(final ReadableByteChannel src, final long position, final long count) throws IOException {
        return delegate.transferFrom(src, position, count);
    }

    @Override
    public int read(final ByteBuffer dst, final long position) throws IOException {
        return delegate.read(dst, position);
    }

    @Override
    public MappedByteBuffer map(final MapMode mode, final long position, final long size) throws IOException {
        return delegate.map(mode, position, size);
    }

    @Override
    public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(final long position, final long size, final boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        delegate.close();
    }
}
