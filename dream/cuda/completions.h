// Completions a host engine's worker writes into its consumers' CQs, the same
// way for both engines (softnvme.cpp: 16-byte NVMe CQEs, the phase tag in the
// last dword; softrnic.cpp: 64-byte mlx5 CQEs, the owner byte in the last 8
// bytes). An entry is built in host memory (its queue's image of the CQ),
// then written after the data it completes, and its last Word, which hands
// it to the consumer, after the rest of it:
//
//   c.add(entry, image, on_device)  stages one: its CQ slot and its image
//   c.bodies(dma)                   the bodies of those in GPU memory go into
//                                   dma's open batch, which the caller
//                                   submits with the data they complete
//   c.post(dma, point)              `point` recorded after that batch: those in
//                                   host memory are written once it has passed
//                                   (at once in Mode::host, which copied at
//                                   submit()); those in GPU memory get their last
//                                   Word in a batch of its own (stream order)
//   c.write_ready(dma)              writes the host ones whose point has passed
//   c.waiting()                     whether some wait for their point
#pragma once
#include <cstring>
#include <deque>
#include <utility>
#include <vector>

#include "dma.h"

namespace dream {

template <size_t Size, class Word> class Completions {
public:
    static constexpr size_t kBody = Size - sizeof(Word);

    void add(uint8_t *entry, const uint8_t *image, bool on_device)
    {
        (on_device ? dev_ : host_).push_back({entry, image});
    }

    void bodies(Dma &dma)
    {
        for (const Entry &e : dev_)
            dma.copy(e.cq, e.image, kBody);
    }

    void post(Dma &dma, uint64_t point)
    {
        if (!host_.empty()) {
            if (dma.mode() == Dma::Mode::host)
                write(host_);
            else
                pending_.emplace_back(point, std::move(host_));
            host_.clear(); // a moved-from vector: valid, and now empty
        }
        for (const Entry &e : dev_)
            dma.copy(e.cq + kBody, e.image + kBody, sizeof(Word));
        dma.submit();
        dev_.clear();
    }

    void write_ready(Dma &dma)
    {
        while (!pending_.empty() && dma.done(pending_.front().first)) {
            write(pending_.front().second);
            pending_.pop_front();
        }
    }

    bool waiting() const { return !pending_.empty(); }

private:
    struct Entry {
        uint8_t *cq;
        const uint8_t *image;
    };

    static void write(const std::vector<Entry> &v)
    {
        for (const Entry &e : v) {
            std::memcpy(e.cq, e.image, kBody);
            Word last;
            std::memcpy(&last, e.image + kBody, sizeof last);
            __atomic_store_n((Word *)(e.cq + kBody), last, __ATOMIC_RELEASE); /* the handing-over word last */
        }
    }

    std::vector<Entry> dev_, host_;
    std::deque<std::pair<uint64_t, std::vector<Entry>>> pending_; // host CQs, GPU mode
};

} // namespace dream
