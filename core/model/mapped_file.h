#pragma once
// A read-only memory map of a whole file (RAII). Checkpoints are read through it, so loading
// touches only the pages of the tensors actually used and the OS can share them.
#include <cstddef>
#include <cstdint>
#include <string>

namespace probaudit::model {

class MappedFile {
public:
    // Throws probaudit::Error naming the file when it cannot be opened or mapped.
    explicit MappedFile(std::string path);
    ~MappedFile();
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::uint8_t* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    const std::string& path() const { return m_path; }
    // Tells the kernel the pages wholly inside [offset, offset + length) are no longer needed:
    // they leave this process's resident set (the file stays in the page cache) and are read
    // again on the next access. Lets a loader copy tensors out without holding the file twice.
    void dropPages(std::size_t offset, std::size_t length) const;

private:
    void release() noexcept;

    std::string m_path;
    const std::uint8_t* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace probaudit::model
