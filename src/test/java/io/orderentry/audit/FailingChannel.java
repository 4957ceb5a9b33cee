package io.orderentry.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.List;

/** A {@link FileChannel} over a real one that fails on command, like a disk that fails mid-write. */
final class FailingChannel extends FileChannel {

    private final FileChannel delegate;
    volatile boolean failWrites;
    volatile boolean failForce;
    private final java.util.concurrent.atomic.AtomicInteger forces = new java.util.concurrent.atomic.AtomicInteger();

    /** When set, {@link #force} waits for it first. */
    volatile java.util.concurrent.CountDownLatch holdForce;

    private FailingChannel(final FileChannel delegate) {
        this.delegate = delegate;
    }

    /** @return a factory whose channels are collected in {@code opened}, newest last */
    static AuditChannelFactory factory(final List<FailingChannel> opened) {
        return (path, create) -> {
            final FailingChannel channel = new FailingChannel(AuditChannelFactory.FILES.open(path, create));
            opened.add(channel);
            return channel;
        };
    }

    /** Writes half of the bytes, then throws, when told to fail. */
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
        forces.incrementAndGet();
        final java.util.concurrent.CountDownLatch hold = holdForce;
        if (hold != null) {
            try {
                hold.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while held", e);
            }
        }
        if (failForce) {
            throw new IOException("injected force failure");
        }
        delegate.force(metaData);
    }

    /** @return how many forces were started on this channel */
    int forcesStarted() {
        return forces.get();
    }

    @Override
    public int write(final ByteBuffer src) throws IOException {
        throw new UnsupportedOperationException("the trail writes at explicit positions");
    }

    @Override
    public long write(final ByteBuffer[] srcs, final int offset, final int length) {
        throw new UnsupportedOperationException("gathering write");
    }

    @Override
    public FileChannel truncate(final long size) throws IOException {
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
    public int read(final ByteBuffer dst, final long position) throws IOException {
        return delegate.read(dst, position);
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
    public long transferFrom(final ReadableByteChannel src, final long position, final long count) {
        throw new UnsupportedOperationException("transferFrom");
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
