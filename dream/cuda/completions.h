// Completions a host engine's worker writes into its consumers' CQs, the same
// way for both engines (softnvme.cpp: 16-byte NVMe CQEs, the phase tag in the
// last dword; softrnic.cpp: 64-byte mlx5 CQEs, the owner byte in the last 8
// bytes). An entry is built in host memory (its queue's image of the CQ) and
// written after the data it completes; the Handed bit of its last Word, which
// hands it to the consumer (it flips on every pass over a CQ), is set last:
//
//   c.add(entry, image, shadow, on_device, cq)
//                                   stages one: its CQ slot, its image, and
//                                   (GPU memory) its shadow: the image with
//                                   the Handed bit flipped, which the consumer
//                                   reads as "not yet"; `cq` names the CQ,
//                                   whose slots and whose images and shadows
//                                   each lie in one allocation
//   c.shadows(dma)                  the shadows of those in GPU memory go into
//                                   dma's open batch, which the caller
//                                   submits with the data they complete
//   c.post(dma, point)              `point` recorded after that batch: those in
//                                   host memory are written once it has passed
//                                   (at once where dma copied at submit():
//                                   Dma::immediate), the last Word last; those in GPU
//                                   memory are written whole again, from their
//                                   images, in a batch of its own (stream order)
//   c.write_ready(dma)              writes the host ones whose point has passed
//   c.waiting()                     whether some wait for their point
//
// GPU memory: whole entries, so that a run of adjacent slots of one CQ is one
// copy of its shadows and one of its images (two of each where it wraps), not
// two copies per entry: the copy engine's cost is per copy. A slot is written
// only once the consumer has taken its previous entry (the engines ensure it:
// a WQE's ticket waits for its slot's last user to be released; an NVMe CQE
// waits for CQ room by the head doorbell), since to a consumer still waiting
// on that one the shadow would read as handed over. A consumer that sees the
// Handed bit set sees the rest: shadow and image differ in that bit alone,
// the shadows' batch finished before the images' batch began, and the bit
// lies in one byte, which no copy writes in parts.
#pragma once
#include <cstring>
#include <deque>
#include <utility>
#include <vector>

#include "dma.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a Handed bit is placed in a little-endian Word");

namespace dream {

template <size_t Size, class Word, Word Handed> class Completions {
public:
    static constexpr size_t kBody = Size - sizeof(Word);

    void add(uint8_t *entry, const uint8_t *image, uint8_t *shadow, bool on_device, const void *cq)
    {
        if (!on_device) {
            host_.push_back({entry, image, nullptr, false});
            return;
        }
        std::memcpy(shadow, image, Size);
        Word last;
        std::memcpy(&last, shadow + kBody, sizeof last);
        last ^= Handed;
        std::memcpy(shadow + kBody, &last, sizeof last);
        const bool next = !dev_.empty() && cq_ == cq && dev_.back().cq + Size == entry &&
                          dev_.back().image + Size == image && dev_.back().shadow + Size == shadow;
        cq_ = cq;
        dev_.push_back({entry, image, shadow, next});
    }

    void shadows(Dma &dma)
    {
        for (const Entry &e : dev_)
            dma.copy(e.cq, e.shadow, Size, e.next);
    }

    void post(Dma &dma, uint64_t point)
    {
        if (!host_.empty()) {
            if (dma.immediate())
                write(host_);
            else
                pending_.emplace_back(point, std::move(host_));
            host_.clear(); // a moved-from vector: valid, and now empty
        }
        for (const Entry &e : dev_)
            dma.copy(e.cq, e.image, Size, e.next);
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
        const uint8_t *shadow;
        bool next; // the slot after the previous entry's, in the same CQ: its copies join
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
    const void *cq_ = nullptr; // the CQ of dev_'s last entry
    std::deque<std::pair<uint64_t, std::vector<Entry>>> pending_; // host CQs, GPU mode
};

} // namespace dream
